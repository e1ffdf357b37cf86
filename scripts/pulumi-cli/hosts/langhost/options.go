package langhost

import (
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// StringOption is Pulumi.yaml's `runtime.options.<name>`, "" when absent, an error naming it when not a string.
func StringOption(info *pulumirpc.ProgramInfo, name string) (string, error) {
	v, ok := info.GetOptions().AsMap()[name]
	if !ok {
		return "", nil
	}
	s, isString := v.(string)
	if !isString {
		return "", fmt.Errorf("the runtime option %s must be a string, not %v", name, v)
	}
	return s, nil
}

// BoolOption is Pulumi.yaml's `runtime.options.<name>`, byDefault when absent, an error naming it when not a boolean.
func BoolOption(info *pulumirpc.ProgramInfo, name string, byDefault bool) (bool, error) {
	v, ok := info.GetOptions().AsMap()[name]
	if !ok {
		return byDefault, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, fmt.Errorf("the runtime option %s must be true or false, not %v", name, v)
	}
	return b, nil
}
