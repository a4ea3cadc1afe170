package sandbox

// UserGoModCache is the user's Go module cache in env ($GOMODCACHE, else
// the first $GOPATH's pkg/mod, else ~/go/pkg/mod): what a language server
// reads its modules from, read-only.
func UserGoModCache(env []string) string {
	return userGoModCache(Spec{Env: env, Home: HomeDir(env)})
}
