package redact

import (
	"encoding/json"
	"testing"
)

// Credentials in a tool call's arguments are redacted, the JSON stays
// valid, ordinary arguments stay byte for byte, and a second pass changes
// nothing.
func TestArguments(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`{"token":"sk-proj-AAAAAAAAAAAAAAAAAAAAAAAAAAAA","url":"https://bob:Hunter2Pass@host/x"}`,
			`{"token":"[redacted]","url":"https://bob:[redacted]@host/x"}`},
		{`{"password":"plainpw123","auth":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"}`,
			`{"auth":"[redacted]","password":"[redacted]"}`},
		{`{"api_key":"abc123","secret":"s3cr3t","authorization":"Basic Ym9iOmh1bnRlcjI=","user_id":"mia_li_3668","amount":1e2}`,
			`{"amount":1e2,"api_key":"[redacted]","authorization":"[redacted]","secret":"[redacted]","user_id":"mia_li_3668"}`},
		{`{"note":"key glpat-ABCDEFGHIJKLMNOPQRSTUVWX here","name":"x","arguments":{"password":"pw12345"}}`,
			`{"arguments":{"password":"[redacted]"},"name":"x","note":"key [redacted] here"}`},
		{`"{\"password\": \"pw1\" broken"`, `"{\"password\": \"[redacted]\" broken"`}, // malformed: the raw text
		// ordinary arguments: returned as written
		{`{"order_id": "#W2378156", "email": "mia.li@example.com", "amount": 150.50, "payment_method_id": "credit_card_4420174"}`,
			`{"order_id": "#W2378156", "email": "mia.li@example.com", "amount": 150.50, "payment_method_id": "credit_card_4420174"}`},
		{`{"reservation_id":"EHGLP3","passengers":[{"first_name":"Basic","last_name":"Token"}]}`,
			`{"reservation_id":"EHGLP3","passengers":[{"first_name":"Basic","last_name":"Token"}]}`},
	} {
		got := Arguments(json.RawMessage(c.in))
		if string(got) != c.want {
			t.Errorf("Arguments(%s)\n = %s\nwant %s", c.in, got, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("Arguments(%s) = %s: not JSON", c.in, got)
		}
		if again := Arguments(got); string(again) != string(got) {
			t.Errorf("Arguments twice: %s, then %s", got, again)
		}
	}
}

// Basic credentials, PEM private keys, cookie headers and GitLab tokens in
// text, in both modes (text: what Text gives when it differs); look-alikes
// stay.
func TestBlocks(t *testing.T) {
	t.Parallel()
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234abcd\nZZZZ+/==\n-----END RSA PRIVATE KEY-----"
	for _, c := range []struct{ in, want, text string }{
		{"Authorization: Basic Ym9iOmh1bnRlcjI=", "Authorization: Basic [redacted]", ""},
		{"curl -H 'Authorization: Basic Ym9iOmh1bnRlcjI=' x", "curl -H 'Authorization: Basic [redacted]' x", ""},
		{"key:\n" + pem + "\nend", "key:\n-----BEGIN RSA PRIVATE KEY-----[redacted]-----END RSA PRIVATE KEY-----\nend", ""},
		{`{"k": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----"}`, `{"k": "-----BEGIN PRIVATE KEY-----[redacted]-----END PRIVATE KEY-----"}`, ""},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk", "-----BEGIN OPENSSH PRIVATE KEY-----[redacted]", ""},
		{"Cookie: session=abc123def; theme=dark", "Cookie: session=[redacted]; theme=[redacted]", "Cookie: [redacted]; theme=[redacted]"},
		{"Set-Cookie: sid=XYZ987; Path=/; HttpOnly", "Set-Cookie: sid=[redacted]; Path=/; HttpOnly", "Set-Cookie: [redacted]; Path=/; HttpOnly"},
		{"use glpat-ABCDEFGHIJKLMNOPQRST12 to push", "use [redacted] to push", ""},
		// look-alikes
		{"The Basic Economy fare is cheaper.", "The Basic Economy fare is cheaper.", ""},
		{"Basic plan costs 10", "Basic plan costs 10", ""},
		{"-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----", ""},
		{"I love a chocolate cookie: yes", "I love a chocolate cookie: yes", "I love a chocolate cookie: [redacted]"},
	} {
		for name, f := range map[string]func(string) string{"Text": Text, "Content": Content} {
			want := c.want
			if name == "Text" && c.text != "" {
				want = c.text // Text's header rule takes a Cookie's first value whole
			}
			got := f(c.in)
			if got != want {
				t.Errorf("%s(%q)\n = %q\nwant %q", name, c.in, got, want)
			}
			if again := f(got); again != got {
				t.Errorf("%s twice: %q, then %q", name, got, again)
			}
		}
	}
}
