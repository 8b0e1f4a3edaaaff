package sim

import (
	"fmt"
	"io"

	"github.com/schollz/progressbar/v3"
)

// Progress shows episodes done, with ETA and the pass rate so far, on a
// terminal. A nil *Progress shows nothing.
type Progress struct{ bar *progressbar.ProgressBar }

// NewProgress returns a Progress of total episodes writing to w, or nil
// when total is 0.
func NewProgress(w io.Writer, total int) *Progress {
	if total == 0 {
		return nil
	}
	return &Progress{progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("episodes"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
	)}
}

// Show counts one more episode done; t is the tally so far. It fits
// Execution.OnEpisode.
func (p *Progress) Show(t Tally) {
	if p != nil {
		p.bar.Describe(fmt.Sprintf("episodes (pass %.2f)", t.PassRate()))
		p.bar.Add(1)
	}
}

// Finish completes the bar.
func (p *Progress) Finish() {
	if p != nil {
		p.bar.Finish()
	}
}
