// pulumi-language-go (see ../langhost for why it is ours): builds a Go program with `go build` into a temporary
// executable and runs it with the run's settings in its environment (PULUMI_MONITOR, PULUMI_CONFIG and the others
// that sdk/v3/go/pulumi reads), as the CLI's Go host does. Pulumi.yaml's `runtime.options`: `binary` runs a
// prebuilt executable instead, `buildTarget` keeps the built one at that path.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-cloudbees.local/pulumi-cli/hosts/langhost"
)

type host struct {
	*langhost.Base
}

func main() {
	langhost.Serve("pulumi-language-go", func(engineAddress string) pulumirpc.LanguageRuntimeServer {
		return &host{langhost.NewBase(engineAddress)}
	})
}

type options struct {
	binary      string
	buildTarget string
}

func parseOptions(info *pulumirpc.ProgramInfo) (options, error) {
	var o options
	m := info.GetOptions().AsMap()
	for name, into := range map[string]*string{"binary": &o.binary, "buildTarget": &o.buildTarget} {
		if v, ok := m[name]; ok {
			s, isString := v.(string)
			if !isString {
				return o, fmt.Errorf("the runtime option %s must be a string", name)
			}
			*into = s
		}
	}
	if o.binary != "" && o.buildTarget != "" {
		return o, errors.New("the runtime options binary and buildTarget cannot both be given")
	}
	return o, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	env, err := h.environment(req)
	if err != nil {
		return nil, err
	}
	program := opts.binary
	if program != "" {
		if program, err = exec.LookPath(program); err != nil {
			return nil, fmt.Errorf("the runtime option binary names %s, which was not found: %w", opts.binary, err)
		}
	} else {
		if program, err = build(ctx, req.GetInfo().GetProgramDirectory(), opts.buildTarget); err != nil {
			return nil, err
		}
		if opts.buildTarget == "" {
			defer os.Remove(program)
		}
	}
	return h.RunProgram(ctx, "the Go program", func(runCtx context.Context) (*exec.Cmd, error) {
		cmd := exec.CommandContext(runCtx, program)
		cmd.Dir = req.GetPwd()
		cmd.Env = env
		return cmd, nil
	})
}

// build compiles the program's package with the flags of the CLI's Go host (no VCS stamp, -trimpath, no symbol
// table), into target or a temporary file; the compiler's messages go to the CLI.
func build(ctx context.Context, dir, target string) (string, error) {
	if sources, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(sources) == 0 {
		return "", fmt.Errorf("no Go files in %s to build the program from", dir)
	}
	if target == "" {
		f, err := os.CreateTemp("", "pulumi-go-program-*")
		if err != nil {
			return "", err
		}
		target = f.Name()
		f.Close()
	} else if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-buildvcs=false", "-trimpath", "-ldflags", "-w -s", "-o", target)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("could not build the Go program in %s (go build: %v)", dir, err)
	}
	return target, nil
}

// environment is how a Go program learns of its run: the variables that sdk/v3/go/pulumi's RunWithContext reads.
func (h *host) environment(req *pulumirpc.RunRequest) ([]string, error) {
	configJSON, err := langhost.ConfigJSON(req, false)
	if err != nil {
		return nil, err
	}
	secretKeys, err := langhost.SecretKeysJSON(req)
	if err != nil {
		return nil, err
	}
	env := os.Environ()
	set := func(name, value string) {
		if value != "" {
			env = append(env, name+"="+value)
		}
	}
	set(pulumi.EnvOrganization, req.GetOrganization())
	set(pulumi.EnvProject, req.GetProject())
	set(pulumi.EnvPulumiRootDirectory, req.GetInfo().GetRootDirectory())
	set(pulumi.EnvStack, req.GetStack())
	set(pulumi.EnvConfig, configJSON)
	set(pulumi.EnvConfigSecretKeys, secretKeys)
	set(pulumi.EnvDryRun, strconv.FormatBool(req.GetDryRun()))
	set(pulumi.EnvParallel, strconv.Itoa(int(req.GetParallel())))
	set(pulumi.EnvMonitor, req.GetMonitorAddress())
	set(pulumi.EnvEngine, h.EngineAddress)
	return env, nil
}

// InstallDependencies is `go mod tidy` in the program's folder: `pulumi install`, and `pulumi up` before it runs.
func (h *host) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	cmd := exec.CommandContext(server.Context(), "go", "mod", "tidy")
	cmd.Dir = req.GetInfo().GetProgramDirectory()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("`go mod tidy` could not install the program's dependencies: %w", err)
	}
	return closer.Close()
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("Go is not installed (no go on PATH): %w", err)
	}
	out, err := exec.CommandContext(ctx, gobin, "env", "GOVERSION").Output()
	if err != nil {
		return nil, fmt.Errorf("`go env GOVERSION` failed: %w", err)
	}
	return &pulumirpc.AboutResponse{Executable: gobin, Version: strings.TrimSpace(string(out))}, nil
}

// GeneratePackage writes a Go SDK with pkg/v3's generator (`pulumi package gen-sdk --language go`); Go SDKs take no
// overlay files.
func (h *host) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	if len(req.GetExtraFiles()) > 0 {
		return nil, errors.New("overlay files are not supported for Go SDKs")
	}
	return langhost.GeneratePackage(req, func(pkg *schema.Package, _ schema.ReferenceLoader, req *pulumirpc.GeneratePackageRequest) (map[string][]byte, error) {
		return codegen.GeneratePackage("pulumi-language-go", pkg, req.GetLocalDependencies())
	})
}
