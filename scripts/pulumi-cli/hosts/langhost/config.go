package langhost

import (
	"encoding/json"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ConfigEnv is the stack's configuration as each SDK reads it from its environment: PULUMI_CONFIG, a JSON object,
// and PULUMI_CONFIG_SECRET_KEYS, the list of the secret keys. The Python and Go SDKs take the engine's keys as they
// come (`<namespace>:<name>`); for Node.js, legacyKeys gives `<namespace>:config:<name>`, the form every
// @pulumi/pulumi version understands (newer ones read both), as the CLI's Node.js host does.
func ConfigEnv(req *pulumirpc.RunRequest, legacyKeys bool) ([]string, error) {
	values := make(map[string]string, len(req.GetConfig()))
	for k, v := range req.GetConfig() {
		if !legacyKeys {
			values[k] = v
			continue
		}
		key, err := config.ParseKey(k)
		if err != nil {
			return nil, err
		}
		values[key.Namespace()+":config:"+key.Name()] = v
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	configJSON, err := json.Marshal(values)
	if err != nil {
		return nil, err
	}
	secretsJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return []string{"PULUMI_CONFIG=" + string(configJSON), "PULUMI_CONFIG_SECRET_KEYS=" + string(secretsJSON)}, nil
}

// Flags is the command line of an SDK's program runner: `--<name> <value>` for each value given.
type Flags []string

// Add appends `--<name> <value>`, unless value is empty.
func (f *Flags) Add(name, value string) {
	if value != "" {
		*f = append(*f, "--"+name, value)
	}
}
