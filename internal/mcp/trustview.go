package mcp

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gatehouse/internal/protocol"
)

// secretWords mark a variable or header name as holding a secret: its
// value is masked in the trust prompt.
var secretWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "AUTH",
	"COOKIE", "SESSION", "PRIVATE", "BEARER", "SIGNATURE"}

// SecretName reports whether name (any case) names a secret.
func SecretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// codeVars make a program load code, or a shell run some, from where
// they point: a workspace's server list setting one runs what it names.
var codeVars = []string{"NODE_OPTIONS", "NODE_PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "PYTHONPATH",
	"PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONINSPECT", "BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND",
	"SHELLOPTS", "BASHOPTS", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS",
	"_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "GCONV_PATH", "LUA_INIT", "LUA_PATH", "LUA_CPATH",
	"TCLLIBPATH", "PHPRC", "PHP_INI_SCAN_DIR", "R_PROFILE", "R_PROFILE_USER", "GOFLAGS", "PATH", "PAGER",
	"EDITOR", "VISUAL", "BROWSER", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS"}

// codePrefixes are families of such variables.
var codePrefixes = []string{"DYLD_", "NPM_CONFIG_", "GIT_CONFIG_", "PIP_", "UV_", "BUN_CONFIG_"}

// LoadsCode reports whether setting the environment variable name can make
// a program load or run code it names.
func LoadsCode(name string) bool {
	n := strings.ToUpper(name)
	if slices.Contains(codeVars, n) {
		return true
	}
	for _, p := range codePrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// TrustServers describes each server of c as the trust prompt shows it.
func TrustServers(c Config) []protocol.McpTrustServer {
	var out []protocol.McpTrustServer
	for _, e := range c.Entries("") {
		kind := "runs "
		if e.Config.Remote() {
			kind = "connects to "
		}
		s := protocol.McpTrustServer{Name: e.Name, Line: kind + e.Config.CommandLine(), TrustReadOnlyHints: e.Config.TrustReadOnlyHints}
		for _, k := range slices.Sorted(maps.Keys(e.Config.Env)) {
			s.Env = append(s.Env, trustEnv(k, e.Config.Env[k], false))
		}
		for _, k := range slices.Sorted(maps.Keys(e.Config.Headers)) {
			s.Env = append(s.Env, trustEnv(k, e.Config.Headers[k], true))
		}
		out = append(out, s)
	}
	return out
}

func trustEnv(name, value string, header bool) protocol.McpTrustEnv {
	v := protocol.McpTrustEnv{Name: name, Value: value, Header: header}
	v.LoadsCode = !header && LoadsCode(name)
	if !v.LoadsCode && (SecretName(name) || header && strings.EqualFold(name, "authorization")) {
		v.Secret, v.Value = true, Mask
	}
	return v
}

// TrustLines lists each server of c as the trust prompt shows it, as
// text: its command line or URL, then each variable (values shown but
// secrets', code-loading ones flagged) and whether it asks to trust its
// read-only hints.
func TrustLines(c Config) []string {
	var out []string
	for _, s := range TrustServers(c) {
		out = append(out, s.Name+" "+s.Line)
		for _, e := range s.Env {
			what := "env " + e.Name + "=" + e.Value
			if e.Header {
				what = "header " + e.Name + ": " + e.Value
			}
			switch {
			case e.LoadsCode:
				what += "  ⚠ makes the server load code it names"
			case e.Secret:
				what += "  (a secret: not shown)"
			}
			out = append(out, "  "+what)
		}
		if s.TrustReadOnlyHints {
			out = append(out, fmt.Sprintf("  ⚠ trusts %s's read-only hints: tools it marks read-only run without asking in safe mode", s.Name))
		}
	}
	return out
}
