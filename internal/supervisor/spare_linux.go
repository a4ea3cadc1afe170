package supervisor

import (
	"encoding/json"
	"fmt"
	"os"
	"syscall"

	"gatehouse/internal/supervisor/wire"
)

// spare is a helper started ahead of its command, so that the app's next
// command does not wait for a process start-up: it waits for one Request,
// then runs it as Main would. End of file on the socket (the app dropped
// the spare, or died) ends it.
func spare() int {
	for _, fd := range []int{LifelineFD, StatusFD, RequestFD} {
		syscall.CloseOnExec(fd)
	}
	buf := make([]byte, wire.MaxRequest+1)
	oob := make([]byte, syscall.CmsgSpace(3*4))
	n, oobn, _, _, err := syscall.Recvmsg(RequestFD, buf, oob, 0)
	for err == syscall.EINTR {
		n, oobn, _, _, err = syscall.Recvmsg(RequestFD, buf, oob, 0)
	}
	syscall.Close(RequestFD)
	if err != nil || n == 0 {
		return 0 // dropped before use
	}
	var fds []int
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		fds, _ = syscall.ParseUnixRights(&msgs[0])
	}
	var req wire.Request
	if len(fds) != 3 || json.Unmarshal(buf[:n], &req) != nil {
		status := os.NewFile(StatusFD, "status")
		report(status, MsgError, fmt.Sprintf("spare helper: a bad request (%d bytes, %d files)", n, len(fds)))
		return 2
	}
	for i, fd := range fds {
		syscall.Dup3(fd, i, 0)
	}
	for _, fd := range fds {
		if fd > 2 {
			syscall.Close(fd)
		}
	}
	if err := syscall.Chdir(req.Dir); err != nil {
		report(os.NewFile(StatusFD, "status"), MsgError, fmt.Sprintf("cannot enter %s: %v", req.Dir, err))
		return 2
	}
	return run(req.Args, req.Env)
}
