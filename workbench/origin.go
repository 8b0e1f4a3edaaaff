package workbench

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/emobench/emobench"
)

// A run's config names the endpoints and API-key variables of its llm:
// roles, and --resume reuses them. A .db is a file users share and merge,
// so whoever wrote it could name their own server and any variable of the
// resumer's environment ($AWS_SECRET_ACCESS_KEY). emobench run therefore
// seals what it records with a random key kept in the user's config
// directory (never in a .db), and resume trusts only a config whose seal
// verifies with it: this user's own runs on this machine, wherever their
// rows travelled (a merge of shards run here included).

// SealKeyName is the file, in emobench's folder of the user's config
// directory (cmd: os.UserConfigDir()/emobench), that holds the key run
// configs are sealed with.
const SealKeyName = "origin.key"

// sealKeyBytes is the key's length: 32 random bytes, stored as hex.
const sealKeyBytes = 32

// errNoSealKeyFile is sealKey's error when no key file is set (no user
// config directory).
var errNoSealKeyFile = errors.New("no key file to seal run configs with (no user config directory)")

// sealKey is the key configs are sealed and verified with: o.MachineKey,
// else the one in o.SealKeyFile (LoadSealKey), else none (an error).
func (o ExecuteOptions) sealKey() ([]byte, error) {
	if o.MachineKey != nil {
		return o.MachineKey, nil
	}
	if o.SealKeyFile == "" {
		return nil, errNoSealKeyFile
	}
	return LoadSealKey(o.SealKeyFile)
}

// LoadSealKey returns the sealing key kept in path: 32 random bytes,
// written as 64 hex digits by the first call (mode 0600, in a folder made
// 0700), read by every later one; it is a secret of this user on this
// machine, which no .db carries. Errors: path (or the folder) cannot be
// made or read, or is not a regular file, or holds no such key (a file
// that is not the key is left as it is).
func LoadSealKey(path string) ([]byte, error) {
	if key, err := readSealKey(path); !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	key := make([]byte, sealKeyBytes)
	rand.Read(key) // crypto/rand: never fails on Linux, panics where it cannot
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readSealKey(path) // another process made it first
	}
	if err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	_, err = f.WriteString(hex.EncodeToString(key) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("seal key: %w", err)
	}
	return key, nil
}

// readSealKey reads the key in path; fs.ErrNotExist when there is none.
func readSealKey(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("seal key %s is not a regular file", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) != sealKeyBytes {
		return nil, fmt.Errorf("seal key %s does not hold %d hex-encoded bytes: move it away and emobench makes a new one (runs sealed with it then need their endpoint given again to resume)", path, sealKeyBytes)
	}
	return key, nil
}

// originSeal returns the hex HMAC-SHA256 under key of what resume would
// act on in spec: the default endpoint and each role's endpoint and key
// variable. It is "" for a spec with no llm: participant (nothing to
// send anywhere), so offline runs' configs stay the same on every machine.
func originSeal(key []byte, spec emobench.RunSpec) string {
	if !usesLLM(spec) {
		return ""
	}
	fields := []string{spec.Agent, spec.User, spec.Judge, spec.BaseURL}
	for _, role := range []*emobench.LLMRole{spec.AgentLLM, spec.UserLLM, spec.JudgeLLM} {
		if role == nil {
			fields = append(fields, "\x00", "\x00")
			continue
		}
		fields = append(fields, role.BaseURL, role.APIKeyEnv)
	}
	msg, _ := json.Marshal(fields) // strings only: cannot fail
	mac := hmac.New(sha256.New, key)
	mac.Write(msg)
	return hex.EncodeToString(mac.Sum(nil))
}

// sealedHere reports whether spec's OriginSeal verifies under key: its
// endpoints and key variables were recorded by emobench run on this
// machine and not changed since.
func sealedHere(key []byte, spec emobench.RunSpec) bool {
	want := originSeal(key, spec)
	return spec.OriginSeal != "" && want != "" && hmac.Equal([]byte(spec.OriginSeal), []byte(want))
}

// usesLLM reports whether any participant of spec is an llm: one.
func usesLLM(spec emobench.RunSpec) bool {
	for _, p := range []string{spec.Agent, spec.User, spec.Judge} {
		if strings.HasPrefix(p, "llm:") {
			return true
		}
	}
	return false
}
