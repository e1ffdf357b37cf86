// Package langhost holds what the language hosts of the real-engine tier share: serving the LanguageRuntime
// service the way the CLI expects of a plugin (the port on the first line of stdout, a health check of the engine),
// and the program's configuration in the form the language SDKs read from their environment.
//
// The Go module proxy of these machines refuses the language-host modules of pulumi/pulumi
// (sdk/nodejs/cmd/pulumi-language-nodejs/v3 and the others answer 403 for every version), so `npm run pulumi-cli`
// builds the real CLI from pkg/v3 and these hosts beside it. They do what the protocol asks of a host and no more:
// the engine, the deployment, the state and the providers are all the CLI's own.
package langhost

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// Serve parses the plugin's command line (`-tracing`, `-version`, then the engine's address), starts the gRPC
// server made by newHost, prints its port and serves until the engine goes away or an interrupt comes.
func Serve(name string, newHost func(engineAddress string) pulumirpc.LanguageRuntimeServer) {
	flag.String("tracing", "", "Emit tracing to a Zipkin-compatible endpoint (accepted, not used)")
	flag.String("root", "", "The project's root directory (accepted, not used)")
	showVersion := flag.Bool("version", false, "Print the plugin's version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println(version.Version)
		return
	}
	engineAddress := flag.Arg(0)

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	stop := make(chan bool)
	go func() {
		<-ctx.Done()
		cancel()
		close(stop)
	}()
	if engineAddress != "" {
		// The host ends when the engine that started it does.
		if err := rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, cancel); err != nil {
			fail(name, fmt.Errorf("could not start the health check of the engine: %w", err))
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, newHost(engineAddress))
			return nil
		},
	})
	if err != nil {
		fail(name, fmt.Errorf("could not start the language host's gRPC server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fail(name, fmt.Errorf("the language host stopped serving: %w", err))
	}
}

func fail(name string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(1)
}

// ConfigJSON is the stack's configuration as the language SDKs read it from PULUMI_CONFIG: a JSON object keyed
// `<namespace>:config:<name>` (the form every SDK version understands; newer ones also read `<namespace>:<name>`).
func ConfigJSON(req *pulumirpc.RunRequest) (string, error) {
	out := make(map[string]string, len(req.GetConfig()))
	for k, v := range req.GetConfig() {
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
