// pulumi-language-python (see ../langhost for why it is ours): runs a Python program with the SDK's own
// pulumi-language-python-exec (copied beside this host from the sdk/v3 module, as Pulumi's archive ships it), in the
// project's virtual environment, with sdk/v3's Python toolchain (pip, poetry or uv), as the CLI's Python host does.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"

	"pulumi-cloudbees.local/pulumi-cli/hosts/langhost"
)

// The SDK's program runner, beside this executable.
const execScript = "pulumi-language-python-exec"

type host struct {
	*langhost.Base
	exec string
}

func main() {
	langhost.Serve("pulumi-language-python", func(engineAddress string) pulumirpc.LanguageRuntimeServer {
		self, err := os.Executable()
		if err != nil {
			fmt.Fprintf(os.Stderr, "pulumi-language-python: could not find its own folder: %v\n", err)
			os.Exit(1)
		}
		return &host{Base: langhost.NewBase(engineAddress), exec: filepath.Join(filepath.Dir(self), execScript)}
	})
}

// options reads Pulumi.yaml's `runtime.options` for python: `virtualenv` (a folder, relative to the project's
// root), `toolchain` (pip, poetry or uv; by default the lockfile found decides, else pip) and `typechecker`, which
// this host refuses rather than ignore (it runs no type checker).
func options(info *pulumirpc.ProgramInfo) (toolchain.PythonOptions, error) {
	o := toolchain.PythonOptions{Root: info.GetRootDirectory(), ProgramDir: info.GetProgramDirectory()}
	m := info.GetOptions().AsMap()
	if v, ok := m["virtualenv"]; ok {
		s, isString := v.(string)
		if !isString {
			return o, errors.New("the runtime option virtualenv must be a string")
		}
		o.Virtualenv = s
	}
	if v, ok := m["toolchain"]; ok {
		switch v {
		case "pip":
			o.Toolchain = toolchain.Pip
		case "poetry":
			o.Toolchain = toolchain.Poetry
		case "uv":
			o.Toolchain = toolchain.Uv
		default:
			return o, fmt.Errorf("the runtime option toolchain must be pip, poetry or uv, not %v", v)
		}
	}
	if _, ok := m["typechecker"]; ok {
		return o, errors.New("the runtime option typechecker is not supported by this build's Python host (npm run pulumi-cli): remove it, or use Pulumi's own CLI")
	}
	return o, nil
}

func toolchainOf(info *pulumirpc.ProgramInfo) (toolchain.Toolchain, error) {
	o, err := options(info)
	if err != nil {
		return nil, err
	}
	return toolchain.ResolveToolchain(o)
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	tc, err := toolchainOf(req.GetInfo())
	if err != nil {
		return nil, err
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return nil, err
	}
	configJSON, err := langhost.ConfigJSON(req, false)
	if err != nil {
		return nil, err
	}
	secretKeys, err := langhost.SecretKeysJSON(req)
	if err != nil {
		return nil, err
	}
	args := []string{h.exec}
	flagIf := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flagIf("monitor", req.GetMonitorAddress())
	flagIf("engine", h.EngineAddress)
	flagIf("project", req.GetProject())
	flagIf("root_directory", req.GetInfo().GetRootDirectory())
	flagIf("stack", req.GetStack())
	flagIf("pwd", req.GetPwd())
	flagIf("dry_run", strconv.FormatBool(req.GetDryRun()))
	flagIf("parallel", strconv.Itoa(int(req.GetParallel())))
	flagIf("organization", req.GetOrganization())
	args = append(append(args, req.GetInfo().GetEntryPoint()), req.GetArgs()...)

	return h.RunProgram(ctx, "the program with python", func(runCtx context.Context) (*exec.Cmd, error) {
		cmd, err := tc.Command(runCtx, args...)
		if err != nil {
			return nil, err
		}
		env := cmd.Env
		if env == nil {
			env = os.Environ()
		}
		cmd.Env = append(env, "PULUMI_CONFIG="+configJSON, "PULUMI_CONFIG_SECRET_KEYS="+secretKeys)
		return cmd, nil
	})
}

// InstallDependencies makes the virtual environment when the project names one, and installs requirements.txt (or
// the poetry or uv project) into it: `pulumi install`, and `pulumi up` before it runs the program.
func (h *host) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	tc, err := toolchainOf(req.GetInfo())
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	err = tc.InstallDependencies(server.Context(), req.GetInfo().GetProgramDirectory(), req.GetUseLanguageVersionTools(), true, stdout, stderr)
	if err != nil {
		return err
	}
	return closer.Close()
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	tc, err := toolchainOf(req.GetInfo())
	if err != nil {
		return nil, err
	}
	info, err := tc.About(ctx)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{Executable: info.PythonExecutable, Version: info.PythonVersion.String()}, nil
}

func (h *host) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	tc, err := toolchainOf(req.GetInfo())
	if err != nil {
		return nil, err
	}
	packages, err := tc.ListPackages(ctx, req.GetTransitiveDependencies())
	if err != nil {
		return nil, err
	}
	deps := make([]*pulumirpc.DependencyInfo, len(packages))
	for i, p := range packages {
		deps[i] = &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// GeneratePackage writes a Python SDK with pkg/v3's generator (`pulumi package gen-sdk --language python`), overlay
// files included.
func (h *host) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	return langhost.GeneratePackage(req, func(pkg *schema.Package, loader schema.ReferenceLoader, req *pulumirpc.GeneratePackageRequest) (map[string][]byte, error) {
		return codegen.GeneratePackage("pulumi-language-python", pkg, req.GetExtraFiles(), loader)
	})
}
