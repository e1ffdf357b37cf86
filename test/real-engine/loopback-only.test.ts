/**
 * The tier runs in a network namespace whose only interface is loopback (scripts/loopback-only.js, `npm run
 * test:pulumi`): the Pulumi CLI, its language hosts and the programs in every language can reach 127.0.0.1 and ::1
 * only, a connection elsewhere failing before it is made. Run otherwise (jest -c jest.pulumi.config.js alone), this
 * test fails and says why.
 */
import * as os from "node:os";

it("every network interface the tier's processes see is loopback", () => {
    const interfaces = Object.entries(os.networkInterfaces()).flatMap(([name, addresses]) =>
        (addresses ?? []).filter((a) => !a.internal).map((a) => `${name} ${a.address}`),
    );
    expect({ nonLoopback: interfaces, hint: "run the tier with npm run test:pulumi (scripts/loopback-only.js)" }).toEqual({
        nonLoopback: [],
        hint: "run the tier with npm run test:pulumi (scripts/loopback-only.js)",
    });
});
