package langhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// RunProgram runs the program's process, which command makes bound to the context it is given, with the host's
// stdout and stderr (the CLI shows them), and says how it ended as the engine expects: the SDKs exit with 32 after
// they have already shown the user why (Bail, no second message), any other failure is the response's error. The
// process gets an interrupt when the engine calls Cancel or the request ends, and a kill 5 s later.
func (b *Base) RunProgram(ctx context.Context, what string, command func(context.Context) (*exec.Cmd, error)) (*pulumirpc.RunResponse, error) {
	runCtx, cancel := context.WithCancel(b.canceled)
	defer cancel()
	context.AfterFunc(ctx, cancel)
	cmd, err := command(runCtx)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	// Through copies: a child (Node.js) may make its own stdout non-blocking, which must not reach ours.
	cmd.Stdout = struct{ *os.File }{os.Stdout}
	cmd.Stderr = struct{ *os.File }{os.Stderr}
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case !errors.As(err, &exit):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not run %s: %v", what, err)}, nil
	case exit.ExitCode() == constant.ExitStatusLoggedError:
		return &pulumirpc.RunResponse{Bail: true}, nil
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", exit.ExitCode())}, nil
	}
}
