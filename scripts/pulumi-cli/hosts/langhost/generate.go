package langhost

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Generator is one language's code generator of pkg/v3 (codegen/python, codegen/go, codegen/nodejs): the SDK's files
// by path, relative to the SDK's folder.
type Generator func(pkg *schema.Package, loader schema.ReferenceLoader, req *pulumirpc.GeneratePackageRequest) (map[string][]byte, error)

// GeneratePackage answers the CLI's GeneratePackage (`pulumi package gen-sdk`, `pulumi package add`): the schema is
// bound with the CLI's schema loader (for the packages it refers to), generated, and written into the request's
// folder, which the CLI has just made empty. Schema errors come back as diagnostics, as the CLI expects.
func GeneratePackage(req *pulumirpc.GeneratePackageRequest, generate Generator) (*pulumirpc.GeneratePackageResponse, error) {
	client, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("could not reach the CLI's schema loader: %w", err)
	}
	defer client.Close()
	loader := schema.NewCachedLoader(client)

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("the package schema is not valid JSON: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	response := &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}
	if diags.HasErrors() {
		return response, nil
	}
	files, err := generate(pkg, loader, req)
	if err != nil {
		return nil, err
	}
	return response, writeFiles(req.GetDirectory(), files)
}

// writeFiles writes each file exclusively (never through a link) under dir; a name that would leave it is refused.
func writeFiles(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !filepath.IsLocal(name) {
			return fmt.Errorf("the code generator named a file outside the SDK's folder: %q", name)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("could not write %s: %w", path, err)
		}
		_, err = f.Write(files[name])
		if closeErr := f.Close(); err == nil {
			err = closeErr
		}
		if err != nil {
			return fmt.Errorf("could not write %s: %w", path, err)
		}
	}
	return nil
}
