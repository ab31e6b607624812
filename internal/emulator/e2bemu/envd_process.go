package e2bemu

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"connectrpc.com/connect"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b/envdprocess"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b/envdprocess/processconnect"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// envdChunk is how much output one data event carries at most (handler.go stdChunkSize).
const envdChunk = 32 << 10

// envdProcess is envd's process service (envd/internal/services/process). Only Start is served:
// what `commands.run` and the provider's checks call; the rest answer Unimplemented.
type envdProcess struct {
	processconnect.UnimplementedProcessHandler
}

// Start is start.go handleStart: the user named by Basic auth, else the template's
// (permissions.GetAuthUser, defaults.User), an unknown one refused as unauthenticated; the cwd
// resolved as permissions.ExpandAndResolve does and refused when it does not exist; the
// environment of handler.go New: the user's, the sandbox's envVars, then the request's envs. It
// streams a start event, the output in data events (stdout, then stderr: the model keeps them
// apart) and an end event with the exit code and, for a failure, "exit status N" as its error
// (handler.go Wait, from Go's exec). A command that never ends (a server, sleep infinity) keeps
// the stream open until the client leaves or the request's timeout (Connect-Timeout-Ms) ends it.
func (envdProcess) Start(ctx context.Context, req *connect.Request[envdprocess.StartRequest], stream *connect.ServerStream[envdprocess.StartResponse]) error {
	sbx := sandboxOf(ctx)
	if sbx.machine == nil {
		return connect.NewError(connect.CodeUnavailable, errors.New("e2bemu: a sandbox of a seeded template has no filesystem to run commands in"))
	}
	name, ok := basicAuthUser(req.Header())
	if !ok {
		return connect.NewError(connect.CodeUnauthenticated, errors.New("invalid authorization header"))
	}
	if name == "" {
		name = sbx.user
	}
	if name == "" {
		name = "root"
	}
	user, ok := sbx.machine.LookupUser(name)
	if !ok {
		return connect.NewError(connect.CodeUnauthenticated, fmt.Errorf("invalid username: '%s'", name))
	}
	config := req.Msg.GetProcess()
	cwd := resolveCwd(config.GetCwd(), sbx.workdir, user.Home)
	if !sbx.machine.FS().IsDir(cwd) {
		return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("cwd '%s' does not exist", cwd))
	}
	env := maps.Clone(sbx.envVars)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, config.GetEnvs())

	sbx.run.Lock()
	sbx.pids++
	pid := sbx.pids
	result := sbx.machine.Exec(ctx, append([]string{config.GetCmd()}, config.GetArgs()...), sandboxos.Process{User: name, Dir: cwd, Env: env})
	sbx.run.Unlock()

	if err := sendEvent(stream, &envdprocess.ProcessEvent{Event: &envdprocess.ProcessEvent_Start{Start: &envdprocess.ProcessEvent_StartEvent{Pid: pid}}}); err != nil {
		return err
	}
	stdout := func(b []byte) *envdprocess.ProcessEvent_DataEvent {
		return &envdprocess.ProcessEvent_DataEvent{Output: &envdprocess.ProcessEvent_DataEvent_Stdout{Stdout: b}}
	}
	stderr := func(b []byte) *envdprocess.ProcessEvent_DataEvent {
		return &envdprocess.ProcessEvent_DataEvent{Output: &envdprocess.ProcessEvent_DataEvent_Stderr{Stderr: b}}
	}
	if err := sendOutput(stream, result.Stdout, stdout); err != nil {
		return err
	}
	if err := sendOutput(stream, result.Stderr, stderr); err != nil {
		return err
	}
	if result.Serving {
		<-ctx.Done()
		return ctx.Err()
	}
	return sendEvent(stream, &envdprocess.ProcessEvent{Event: &envdprocess.ProcessEvent_End{End: endEvent(result.ExitCode)}})
}

// endEvent is what Wait reports for a process that exited with code: Go's ProcessState.String()
// as the status, and as the error when the code is not 0 (exec.ExitError).
func endEvent(code int) *envdprocess.ProcessEvent_EndEvent {
	status := fmt.Sprintf("exit status %d", code)
	end := &envdprocess.ProcessEvent_EndEvent{ExitCode: int32(code), Exited: true, Status: status}
	if code != 0 {
		end.Error = &status
	}
	return end
}

func sendEvent(stream *connect.ServerStream[envdprocess.StartResponse], event *envdprocess.ProcessEvent) error {
	return stream.Send(&envdprocess.StartResponse{Event: event})
}

// sendOutput sends out in data events of at most envdChunk bytes each.
func sendOutput(stream *connect.ServerStream[envdprocess.StartResponse], out string, event func([]byte) *envdprocess.ProcessEvent_DataEvent) error {
	for data := []byte(out); len(data) > 0; {
		n := min(len(data), envdChunk)
		if err := sendEvent(stream, &envdprocess.ProcessEvent{Event: &envdprocess.ProcessEvent_Data{Data: event(data[:n])}}); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}
