package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// packageJSON is what a package.json says of a Pulumi resource plugin: `"pulumi": {"resource": true, ...}`.
type packageJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Pulumi  struct {
		Resource bool   `json:"resource"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Server   string `json:"server"`
	} `json:"pulumi"`
}

// pluginPackages lists the resource plugins that the packages in the program's node_modules declare, nested
// node_modules included, each folder read once (links are followed).
func pluginPackages(programDir string) ([]*pulumirpc.PackageDependency, error) {
	seen := map[string]bool{}
	var found []*pulumirpc.PackageDependency
	var walk func(dir string) error
	walk = func(nodeModules string) error {
		entries, err := os.ReadDir(nodeModules)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		for _, e := range entries {
			dir := filepath.Join(nodeModules, e.Name())
			if strings.HasPrefix(e.Name(), "@") {
				if err := walk(dir); err != nil {
					return err
				}
				continue
			}
			// Packages are folders (or links to folders); .bin, .package-lock.json and the like are not.
			real, err := filepath.EvalSymlinks(dir)
			if err != nil || seen[real] || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if info, err := os.Stat(real); err != nil || !info.IsDir() {
				continue
			}
			seen[real] = true
			if p, ok := readPlugin(filepath.Join(real, "package.json")); ok {
				found = append(found, p)
			}
			if err := walk(filepath.Join(real, "node_modules")); err != nil {
				return err
			}
		}
		return nil
	}
	return found, walk(filepath.Join(programDir, "node_modules"))
}

func readPlugin(file string) (*pulumirpc.PackageDependency, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, false
	}
	var info packageJSON
	if json.Unmarshal(b, &info) != nil || !info.Pulumi.Resource {
		return nil, false
	}
	name := info.Pulumi.Name
	if name == "" {
		name = strings.TrimPrefix(info.Name, "@pulumi/")
	}
	v := info.Pulumi.Version
	if v == "" {
		v = info.Version
	}
	if v != "" && !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	return &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: v, Server: info.Pulumi.Server}, true
}
