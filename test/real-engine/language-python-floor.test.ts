// examples/plugin/python under the real CLI on the lowest Pulumi SDK its generated SDK declares (SDK_FLOORS), as
// test/real-engine/languages/describe-language.ts says.
import { describeLanguage } from "./languages/describe-language";
import { LANGUAGES } from "./languages/languages";

describeLanguage(LANGUAGES.pythonFloor);
