import { closeSerializerSession } from "../../testing/engine/serialize";

export { closeSerializerSession, serializeProvider, serializeProviderDetailed, type SerializedProvider } from "../../testing/engine/serialize";

// Every test file that imports the harness closes its SDK copy's serializer session (testing/engine/serialize.ts says why).
// Outside jest there is no afterAll; when the harness is first required inside a test or hook, jest refuses new
// hooks: that file then has to call closeSerializerSession() itself.
if (typeof afterAll === "function") {
    try {
        afterAll(closeSerializerSession);
    } catch {
        // see above
    }
}
