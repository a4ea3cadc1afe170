package lsp

import "syscall"

// setDeathSignal kills a plain server when this process dies.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
