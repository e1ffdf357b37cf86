package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// pluginFiles is run by the environment's python with distribution names as arguments: it prints, for each, the
// pulumi-plugin.json that the distribution installed (from its file list, or, for an editable install, in its
// top-level packages), or "" when it has none.
const pluginFiles = `
import importlib.metadata as md, importlib.util, json, os, sys
def find(name):
    dist = md.distribution(name)
    for f in dist.files or []:
        if f.name == "pulumi-plugin.json":
            return str(dist.locate_file(f))
    tops = (dist.read_text("top_level.txt") or "").split() or [dist.metadata["Name"].replace("-", "_")]
    for top in tops:
        spec = importlib.util.find_spec(top)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            candidate = os.path.join(folder, "pulumi-plugin.json")
            if os.path.isfile(candidate):
                return candidate
    return ""
found = {}
for name in sys.argv[1:]:
    try:
        found[name] = find(name)
    except Exception:
        found[name] = ""
print(json.dumps(found))
`

// GetRequiredPackages lists the Pulumi packages installed in the program's environment: each distribution whose
// pulumi-plugin.json says `"resource": true` (the generated SDKs carry one), named and versioned by it, else by the
// distribution's name (without "pulumi-") and version. The virtual environment is made first if it is missing.
func (h *host) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	tc, err := toolchainOf(req.GetInfo())
	if err != nil {
		return nil, err
	}
	if err := tc.EnsureVenv(ctx, req.GetInfo().GetProgramDirectory(), false, true, os.Stdout, os.Stderr); err != nil {
		return nil, err
	}
	dists, err := tc.ListPackages(ctx, true)
	if err != nil {
		return nil, err
	}
	files, err := pluginFilesOf(ctx, tc, dists)
	if err != nil {
		return nil, err
	}
	packages := []*pulumirpc.PackageDependency{}
	for _, d := range dists {
		if files[d.Name] == "" {
			continue
		}
		info, err := plugin.LoadPulumiPluginJSON(files[d.Name])
		if err != nil {
			return nil, fmt.Errorf("the Python package %s has an unreadable pulumi-plugin.json: %w", d.Name, err)
		}
		if p := dependencyOf(d, info); p != nil {
			packages = append(packages, p)
		}
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

func pluginFilesOf(ctx context.Context, tc toolchain.Toolchain, dists []plugin.DependencyInfo) (map[string]string, error) {
	if len(dists) == 0 {
		return map[string]string{}, nil
	}
	args := []string{"-c", pluginFiles}
	for _, d := range dists {
		args = append(args, d.Name)
	}
	cmd, err := tc.Command(ctx, args...)
	if err != nil {
		return nil, err
	}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("could not list the pulumi-plugin.json files of the Python environment: %w", err)
	}
	files := map[string]string{}
	if err := json.Unmarshal(out, &files); err != nil {
		return nil, fmt.Errorf("could not read the list of pulumi-plugin.json files: %w", err)
	}
	return files, nil
}

// A plain release version of PEP 440 (1.2 or 1.2.3), the only form whose plugin version can be told from it.
var releaseVersion = regexp.MustCompile(`^(\d+)\.(\d+)(?:\.(\d+))?$`)

// dependencyOf is the plugin a distribution's pulumi-plugin.json names, or nil when it names none (not a resource
// plugin, or no version that can be told).
func dependencyOf(d plugin.DependencyInfo, info *plugin.PulumiPluginJSON) *pulumirpc.PackageDependency {
	if !info.Resource {
		return nil
	}
	version := info.Version
	if version == "" {
		m := releaseVersion.FindStringSubmatch(d.Version)
		if m == nil {
			return nil
		}
		patch := m[3]
		if patch == "" {
			patch = "0"
		}
		version = m[1] + "." + m[2] + "." + patch
	}
	if version[0] != 'v' {
		version = "v" + version
	}
	name := info.Name
	if name == "" {
		name = strings.TrimPrefix(d.Name, "pulumi-")
	}
	p := &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version, Server: info.Server}
	if info.Parameterization != nil {
		p.Parameterization = &pulumirpc.PackageParameterization{
			Name: info.Parameterization.Name, Version: info.Parameterization.Version, Value: info.Parameterization.Value,
		}
	}
	return p
}
