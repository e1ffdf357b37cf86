// Package langhost holds what our language hosts share: serving the LanguageRuntime service the way the CLI expects
// of a plugin (the port on the first line of stdout, a health check of the engine), the answers every host gives
// alike (Handshake, GetPluginInfo, Cancel), running a program to its end, the configuration in the form the SDKs
// read, and GeneratePackage around pkg/v3's code generators.
//
// Why these hosts are ours: the Go module proxy of these machines refuses pulumi/pulumi's language-host modules
// (sdk/nodejs/cmd/pulumi-language-nodejs/v3, sdk/python/cmd/pulumi-language-python/v3 and
// sdk/go/pulumi-language-go/v3 answer 403 for every version and pseudo-version), while it serves pkg/v3 and sdk/v3.
// So `npm run pulumi-cli` builds the real CLI from pkg/v3 and these small hosts beside it, on pkg/v3's and sdk/v3's
// own packages (the code generators, the Python toolchain, npm). They do what the protocol asks of a host and no
// more: the engine, the deployment, the state, the providers and the SDKs' code are all Pulumi's own.
package langhost

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
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

// Base answers what every host answers alike; a host embeds it and adds its language's methods (the methods it
// does not add answer Unimplemented).
type Base struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	// EngineAddress is the engine's gRPC address: from the command line, or from Handshake.
	EngineAddress string
	canceled      context.Context
	cancel        context.CancelFunc
}

// NewBase is the shared part of a host started with the engine's address (empty when it comes by Handshake).
func NewBase(engineAddress string) *Base {
	ctx, cancel := context.WithCancel(context.Background())
	return &Base{EngineAddress: engineAddress, canceled: ctx, cancel: cancel}
}

func (b *Base) Handshake(ctx context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	b.EngineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (b *Base) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// Cancel ends the program that Run started (an interrupt, then a kill after a grace period).
func (b *Base) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	b.cancel()
	return &emptypb.Empty{}, nil
}
