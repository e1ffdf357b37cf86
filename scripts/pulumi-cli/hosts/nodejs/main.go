// pulumi-language-nodejs for the real-engine tier (see ../langhost): runs a Node.js program with the SDK's own
// `@pulumi/pulumi/cmd/run`, and a Node.js plugin with its `cmd/run-plugin`, as the CLI's language host does.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-cloudbees.local/pulumi-cli/hosts/langhost"
)

type host struct {
	*langhost.Base
}

func main() {
	langhost.Serve("pulumi-language-nodejs", func(engineAddress string) pulumirpc.LanguageRuntimeServer {
		return &host{langhost.NewBase(engineAddress)}
	})
}

// options are Pulumi.yaml's `runtime.options` for nodejs.
type options struct {
	typescript bool
	tsconfig   string
	nodeargs   []string
}

func parseOptions(info *pulumirpc.ProgramInfo) (o options, err error) {
	if o.typescript, err = langhost.BoolOption(info, "typescript", true); err != nil {
		return o, err
	}
	if o.tsconfig, err = langhost.StringOption(info, "tsconfig"); err != nil {
		return o, err
	}
	nodeargs, err := langhost.StringOption(info, "nodeargs")
	o.nodeargs = strings.Fields(nodeargs)
	return o, err
}

func (o options) env() []string {
	var env []string
	if o.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if o.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+o.tsconfig)
	}
	return env
}

// resolve finds a module of the program's own @pulumi/pulumi, as `require.resolve` does from the program's folder.
func resolve(module, dir string) (string, error) {
	script := fmt.Sprintf("try{console.log(require.resolve(%q))}catch(e){console.error(e.code==='MODULE_NOT_FOUND'?"+
		"'the Pulumi SDK (@pulumi/pulumi) is not installed in %s: run npm install there':e.message);process.exit(1)}", module, dir)
	cmd := exec.Command("node", "-e", script)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", errors.New(strings.TrimSpace(string(exit.Stderr)))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	opts, err := parseOptions(info)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	runPath, err := resolve("@pulumi/pulumi/cmd/run", info.GetProgramDirectory())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	config, err := langhost.ConfigEnv(req, true)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args := append(langhost.Flags(opts.nodeargs), runPath)
	args.Add("monitor", req.GetMonitorAddress())
	args.Add("engine", h.EngineAddress)
	args.Add("organization", req.GetOrganization())
	args.Add("project", req.GetProject())
	args.Add("root-directory", info.GetRootDirectory())
	args.Add("stack", req.GetStack())
	args.Add("pwd", info.GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	args.Add("parallel", strconv.Itoa(int(req.GetParallel())))
	args = append(append(args, info.GetEntryPoint()), req.GetArgs()...)

	return h.RunProgram(ctx, "the program with node", func(runCtx context.Context) (*exec.Cmd, error) {
		cmd := exec.CommandContext(runCtx, "node", args...)
		cmd.Env = append(append(os.Environ(), config...), opts.env()...)
		return cmd, nil
	})
}

// RunPlugin runs a plugin written for Node.js (a PulumiPlugin.yaml with `runtime: nodejs`) with the SDK's
// run-plugin script, its output streamed back to the engine.
func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	info := req.GetInfo()
	opts, err := parseOptions(info)
	if err != nil {
		return err
	}
	runPath, err := resolve("@pulumi/pulumi/cmd/run-plugin", info.GetProgramDirectory())
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()
	args := append(append(append([]string{}, opts.nodeargs...), runPath, info.GetProgramDirectory()), req.GetArgs()...)
	cmd := exec.CommandContext(server.Context(), "node", args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = append(append([]string{}, req.GetEnv()...), opts.env()...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return fmt.Errorf("Program exited with non-zero exit code: %d", exit.ExitCode())
		}
		return fmt.Errorf("could not run the plugin with node: %w", err)
	}
	return closer.Close()
}

func (h *host) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	packages, err := pluginPackages(req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

// InstallDependencies installs the program's packages with its package manager (npm, yarn, pnpm or bun).
func (h *host) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	return langhost.InstallDependencies(req, server, func(ctx context.Context, stdout, stderr io.Writer) error {
		_, err := npm.Install(ctx, npm.AutoPackageManager, req.GetInfo().GetProgramDirectory(), false, stdout, stderr)
		return err
	})
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	return langhost.AboutTool(ctx, "node", "--version")
}

func (h *host) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	pm, err := npm.ResolvePackageManager(npm.AutoPackageManager, dir)
	if err != nil {
		return nil, err
	}
	packages, err := pm.ListPackages(ctx, dir, req.GetTransitiveDependencies())
	if err != nil {
		return nil, err
	}
	return langhost.Dependencies(packages), nil
}

// GeneratePackage writes a Node.js SDK with pkg/v3's generator, as `pulumi package gen-sdk --language nodejs` asks
// (overlay files, local dependencies and the local-SDK form passed on as the request gives them).
func (h *host) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	return langhost.GeneratePackage(req, func(pkg *schema.Package, loader schema.ReferenceLoader, req *pulumirpc.GeneratePackageRequest) (map[string][]byte, error) {
		return codegen.GeneratePackage("pulumi-language-nodejs", pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), loader)
	})
}
