package cliargs

import (
	"cmp"
	"os"
	"path/filepath"
)

// CheckOutFiles refuses, before anything is computed, the output files a
// command was given, as pairs of a flag's name and its value ("out",
// path, "stats", path2; a value "" is no file): one that is a directory,
// lies in a directory that does not exist, exists without force, or is
// not a regular file (a device, a named pipe: never replaced, even with
// force), and two flags naming the same file. target reports whether a
// path exists and fails for one that is not a regular file (as
// atomicfile.Target does). Its refusals are EREQUEST errors naming the
// flag; target's error is returned as it is.
func CheckOutFiles(force bool, target func(path string) (exists bool, err error), flagPaths ...string) error {
	for i := 0; i+1 < len(flagPaths); i += 2 {
		flag, path := flagPaths[i], flagPaths[i+1]
		if path == "" {
			continue
		}
		for j := 0; j < i; j += 2 {
			if other := flagPaths[j+1]; sameFile(path, other) {
				return Usagef("--%s %s is the same file as --%s %s; give it another name", flag, path, flagPaths[j], other)
			}
		}
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return Usagef("--%s %s is a directory", flag, path)
		}
		if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
			return Usagef("--%s %s: directory %s does not exist", flag, path, filepath.Dir(path))
		}
		if exists, err := target(path); err != nil || exists && !force {
			return cmp.Or(err, Usagef("--%s %s exists (use --force to overwrite it)", flag, path))
		}
	}
	return nil
}

// sameFile reports whether paths a and b name one file: the same
// absolute path, or two existing names of it (a hard or symbolic link).
func sameFile(a, b string) bool {
	if b == "" {
		return false
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	absA, _ := filepath.Abs(a)
	absB, _ := filepath.Abs(b)
	return absA == absB || errA == nil && errB == nil && os.SameFile(fa, fb)
}
