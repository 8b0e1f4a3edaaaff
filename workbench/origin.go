package workbench

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/emobench/emobench"
)

// A run's config names the endpoints and API-key variables of its llm:
// roles, and --resume reuses them. A .db is a file users share and merge,
// so whoever wrote it could name their own server and any variable of the
// resumer's environment ($AWS_SECRET_ACCESS_KEY). emobench run therefore
// seals what it records with a key of the machine it runs on, and resume
// trusts only a config whose seal verifies here: this machine's own runs,
// wherever their rows travelled (a merge of shards run here included).

// machineSealKey is this machine's key for sealing run configs: its
// systemd/D-Bus machine id, else its host name, with the user id, so that
// another user of the machine cannot forge one either by reading the id
// alone (both are readable locally: the seal guards against files from
// elsewhere, not against the machine's own users).
var machineSealKey = sync.OnceValue(func() []byte {
	id := ""
	for _, path := range []string{"/etc/machine-id", "/var/lib/dbus/machine-id"} {
		if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			id = strings.TrimSpace(string(b))
			break
		}
	}
	if id == "" {
		id, _ = os.Hostname()
	}
	return []byte("emobench run origin v1\x00" + id + "\x00" + strconv.Itoa(os.Getuid()))
})

// sealKey is the key configs are sealed and verified with: o.MachineKey,
// or this machine's.
func (o ExecuteOptions) sealKey() []byte {
	if o.MachineKey != nil {
		return o.MachineKey
	}
	return machineSealKey()
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
