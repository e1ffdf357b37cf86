package langhost

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// InstallDependencies runs install with the writers that stream its output to the CLI (`pulumi install`).
func InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
	install func(ctx context.Context, stdout, stderr io.Writer) error,
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	if err := install(server.Context(), stdout, stderr); err != nil {
		return err
	}
	return closer.Close()
}

// AboutTool is the About answer for a language whose toolchain is one executable: its path, and the version that
// `<program> <args...>` prints (`pulumi about`).
func AboutTool(ctx context.Context, program string, args ...string) (*pulumirpc.AboutResponse, error) {
	path, err := exec.LookPath(program)
	if err != nil {
		return nil, fmt.Errorf("%s is not installed (not on PATH): %w", program, err)
	}
	out, err := exec.CommandContext(ctx, path, args...).Output()
	if err != nil {
		return nil, fmt.Errorf("`%s %s` failed: %w", program, strings.Join(args, " "), err)
	}
	return &pulumirpc.AboutResponse{Executable: path, Version: strings.TrimSpace(string(out))}, nil
}

// Dependencies is the GetProgramDependencies answer for the packages a toolchain lists (`pulumi about`).
func Dependencies(packages []plugin.DependencyInfo) *pulumirpc.GetProgramDependenciesResponse {
	deps := make([]*pulumirpc.DependencyInfo, len(packages))
	for i, p := range packages {
		deps[i] = &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}
}
