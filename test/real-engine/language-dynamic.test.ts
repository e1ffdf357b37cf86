// examples/plugin/dynamic under the real CLI, as test/real-engine/languages/describe-language.ts says.
import { describeLanguage } from "./languages/describe-language";
import { LANGUAGES } from "./languages/languages";

describeLanguage(LANGUAGES.dynamic);
