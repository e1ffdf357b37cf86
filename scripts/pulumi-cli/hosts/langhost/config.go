package langhost

import (
	"encoding/json"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ConfigJSON is the stack's configuration for PULUMI_CONFIG as each SDK reads it. The Python and Go SDKs take the
// engine's keys as they come (`<namespace>:<name>`); for Node.js, legacyKeys gives `<namespace>:config:<name>`, the
// form every @pulumi/pulumi version understands (newer ones read both).
func ConfigJSON(req *pulumirpc.RunRequest, legacyKeys bool) (string, error) {
	out := make(map[string]string, len(req.GetConfig()))
	for k, v := range req.GetConfig() {
		if !legacyKeys {
			out[k] = v
			continue
		}
		key, err := config.ParseKey(k)
		if err != nil {
			return "", err
		}
		out[key.Namespace()+":config:"+key.Name()] = v
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// SecretKeysJSON is the list of secret configuration keys, for PULUMI_CONFIG_SECRET_KEYS.
func SecretKeysJSON(req *pulumirpc.RunRequest) (string, error) {
	keys := req.GetConfigSecretKeys()
	if keys == nil {
		keys = []string{}
	}
	b, err := json.Marshal(keys)
	return string(b), err
}
