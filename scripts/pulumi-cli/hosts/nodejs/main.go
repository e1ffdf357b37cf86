// pulumi-language-nodejs for the real-engine tier (see ../langhost): runs a Node.js program with the SDK's own
// `@pulumi/pulumi/cmd/run`, and a Node.js plugin with its `cmd/run-plugin`, as the CLI's language host does.
package main

import (
	"context"
	"errors"
	"fmt"
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

func parseOptions(info *pulumirpc.ProgramInfo) (options, error) {
	o := options{typescript: true}
	m := info.GetOptions().AsMap()
	if v, ok := m["typescript"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return o, errors.New("the runtime option typescript must be a boolean")
		}
		o.typescript = b
	}
	if v, ok := m["tsconfig"]; ok {
		s, isString := v.(string)
		if !isString {
			return o, errors.New("the runtime option tsconfig must be a string")
		}
		o.tsconfig = s
	}
	if v, ok := m["nodeargs"]; ok {
		s, isString := v.(string)
		if !isString {
			return o, errors.New("the runtime option nodeargs must be a string")
		}
		o.nodeargs = strings.Fields(s)
	}
	return o, nil
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
	configJSON, err := langhost.ConfigJSON(req, true)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	secretKeys, err := langhost.SecretKeysJSON(req)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args := append(append([]string{}, opts.nodeargs...), runPath)
	flagIf := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flagIf("monitor", req.GetMonitorAddress())
	flagIf("engine", h.EngineAddress)
	flagIf("organization", req.GetOrganization())
	flagIf("project", req.GetProject())
	flagIf("root-directory", info.GetRootDirectory())
	flagIf("stack", req.GetStack())
	flagIf("pwd", info.GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	flagIf("parallel", strconv.Itoa(int(req.GetParallel())))
	args = append(args, info.GetEntryPoint())
	args = append(args, req.GetArgs()...)

	return h.RunProgram(ctx, "the program with node", func(runCtx context.Context) (*exec.Cmd, error) {
		cmd := exec.CommandContext(runCtx, "node", args...)
		cmd.Env = append(append(os.Environ(), "PULUMI_CONFIG="+configJSON, "PULUMI_CONFIG_SECRET_KEYS="+secretKeys), opts.env()...)
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

func (h *host) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	dir := req.GetInfo().GetProgramDirectory()
	if _, err := npm.Install(server.Context(), npm.AutoPackageManager, dir, false, stdout, stderr); err != nil {
		return err
	}
	return closer.Close()
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, err
	}
	out, _ := exec.CommandContext(ctx, node, "--version").Output()
	return &pulumirpc.AboutResponse{Executable: node, Version: strings.TrimSpace(string(out))}, nil
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
	deps := make([]*pulumirpc.DependencyInfo, len(packages))
	for i, p := range packages {
		deps[i] = &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// GeneratePackage writes a Node.js SDK with pkg/v3's generator, as `pulumi package gen-sdk --language nodejs` asks
// (overlay files, local dependencies and the local-SDK form passed on as the request gives them).
func (h *host) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	return langhost.GeneratePackage(req, func(pkg *schema.Package, loader schema.ReferenceLoader, req *pulumirpc.GeneratePackageRequest) (map[string][]byte, error) {
		return codegen.GeneratePackage("pulumi-language-nodejs", pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), loader)
	})
}
