package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// goModule is a module that provides packages to the program, as `go list -deps` names it.
type goModule struct {
	Path    string
	Version string
	Dir     string
}

// goMod reads the go.mod of the module that holds the program (it may be in a folder above it; workspaces off).
func goMod(ctx context.Context, programDir string) (*modfile.File, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.GoMod}}")
	cmd.Dir = programDir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("`go list -m` found no Go module for the program in %s: %w", programDir, err)
	}
	file := string(bytes.TrimSpace(out))
	if file == "" {
		return nil, fmt.Errorf("the program in %s is not in a Go module (no go.mod)", programDir)
	}
	body, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return modfile.Parse(file, body, nil)
}

// programModules lists the modules that provide the packages the program imports, directly or not, each once, from
// `go list -deps`: they are on disk for the program to build, so nothing is downloaded to answer (the CLI's Go host
// lists go.mod's requirements instead, and downloads those not in the module cache).
func programModules(ctx context.Context, programDir string) ([]goModule, error) {
	format := "{{with .Module}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}"
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-deps", "-f", format, ".")
	cmd.Dir = programDir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("`go list -deps` could not list the program's packages in %s: %w", programDir, err)
	}
	seen := map[string]bool{}
	var modules []goModule
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) != 3 || fields[2] == "" || seen[fields[0]] {
			continue
		}
		seen[fields[0]] = true
		modules = append(modules, goModule{Path: fields[0], Version: fields[1], Dir: fields[2]})
	}
	return modules, nil
}

// GetRequiredPackages lists the Pulumi packages among the modules of the program's packages: those with a
// pulumi-plugin.json saying `"resource": true` at the module's root, in go/, or one folder below either (where
// generated SDKs put it).
func (h *host) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	modules, err := programModules(ctx, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	packages := []*pulumirpc.PackageDependency{}
	for _, m := range modules {
		p, err := packageOf(m)
		if err != nil {
			return nil, fmt.Errorf("the Go module %s: %w", m.Path, err)
		}
		if p != nil {
			packages = append(packages, p)
		}
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

// packageOf is the plugin that a module's pulumi-plugin.json names, or nil when the module has none.
func packageOf(m goModule) (*pulumirpc.PackageDependency, error) {
	candidates := []string{filepath.Join(m.Dir, "pulumi-plugin.json"), filepath.Join(m.Dir, "go", "pulumi-plugin.json")}
	for _, pattern := range []string{filepath.Join(m.Dir, "go", "*", "pulumi-plugin.json"), filepath.Join(m.Dir, "*", "pulumi-plugin.json")} {
		found, _ := filepath.Glob(pattern)
		candidates = append(candidates, found...)
	}
	for _, file := range candidates {
		info, err := plugin.LoadPulumiPluginJSON(file)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		if !info.Resource {
			return nil, nil
		}
		return dependencyOf(m, info)
	}
	return nil, nil
}

func dependencyOf(m goModule, info *plugin.PulumiPluginJSON) (*pulumirpc.PackageDependency, error) {
	name := info.Name
	if name == "" {
		// github.com/pulumi/pulumi-aws/sdk/v6 -> aws
		parts := strings.Split(m.Path, "/")
		if len(parts) < 3 || !strings.Contains(parts[2], "-") {
			return nil, errors.New("its pulumi-plugin.json names no plugin, and its path does not (…/pulumi-<name>/…)")
		}
		name = strings.SplitN(parts[2], "-", 2)[1]
	}
	version := info.Version
	if version == "" {
		version = m.Version
	}
	if version != "" && version[0] != 'v' {
		version = "v" + version
	}
	// A pseudo-version stands for a commit after a tag: the plugin of that tag is the one released.
	if module.IsPseudoVersion(version) {
		base, err := module.PseudoVersionBase(version)
		if err != nil || base == "" {
			return nil, fmt.Errorf("its version %s follows no release, and its pulumi-plugin.json gives none", version)
		}
		version = base
	}
	if !semver.IsValid(version) {
		return nil, fmt.Errorf("its version %q is not a semantic version, and its pulumi-plugin.json gives none", version)
	}
	p := &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version, Server: info.Server}
	if info.Parameterization != nil {
		p.Parameterization = &pulumirpc.PackageParameterization{
			Name: info.Parameterization.Name, Version: info.Parameterization.Version, Value: info.Parameterization.Value,
		}
	}
	return p, nil
}

// GetProgramDependencies lists the modules that go.mod requires (indirect ones too when asked); a module replaced
// by another has no version of its own.
func (h *host) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	mod, err := goMod(ctx, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	replaced := map[string]bool{}
	for _, r := range mod.Replace {
		replaced[r.Old.Path] = true
	}
	deps := []*pulumirpc.DependencyInfo{}
	for _, r := range mod.Require {
		if r.Indirect && !req.GetTransitiveDependencies() {
			continue
		}
		version := r.Mod.Version
		if replaced[r.Mod.Path] {
			version = ""
		}
		deps = append(deps, &pulumirpc.DependencyInfo{Name: r.Mod.Path, Version: version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}
