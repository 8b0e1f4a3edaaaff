package cliargs

import (
	"runtime/debug"
	"strings"
)

// BuildVersion is what --version prints after "NAME version": the module
// version ("(devel)" when built from a checkout), the VCS revision and
// whether the checkout had uncommitted changes, and the Go version, joined
// by ", ". Give it debug.ReadBuildInfo(); ok false (no build information)
// gives "unknown".
func BuildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "unknown"
	}
	parts := []string{info.Main.Version}
	if parts[0] == "" {
		parts[0] = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		parts = append(parts, "revision "+rev)
	}
	if settings["vcs.modified"] == "true" {
		parts = append(parts, "modified")
	}
	if info.GoVersion != "" {
		parts = append(parts, info.GoVersion)
	}
	return strings.Join(parts, ", ")
}
