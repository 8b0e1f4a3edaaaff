package chromiumtest

import (
	"testing"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
)

func TestProblem(t *testing.T) {
	for _, tt := range []struct {
		ev   any
		want string
	}{
		{&runtime.EventConsoleAPICalled{Type: runtime.ConsoleAPICalledTypeError, Args: []*runtime.RemoteObject{{Description: "boom"}}}, "console.error: boom"},
		{&runtime.EventConsoleAPICalled{Type: runtime.ConsoleAPICalledTypeLog}, ""},
		{&runtime.EventExceptionThrown{ExceptionDetails: &runtime.ExceptionDetails{LineNumber: 3, ColumnNumber: 4, Text: "Uncaught"}}, "exception at 3:4: Uncaught"},
		{&cdplog.EventEntryAdded{Entry: &cdplog.Entry{Level: cdplog.EntryLevelError, Text: "failed", URL: "file:///x"}}, "log error: failed file:///x"},
		{&cdplog.EventEntryAdded{Entry: &cdplog.Entry{Level: cdplog.EntryLevelInfo}}, ""},
		{"other", ""},
	} {
		if got := Problem(tt.ev); got != tt.want {
			t.Errorf("Problem(%#v) = %q, want %q", tt.ev, got, tt.want)
		}
	}
}
