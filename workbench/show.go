package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/export"
	"github.com/emobench/emobench/reports"
)

// TrajectoryRef names the trajectory `show` prints: by ID, or, when ByRun,
// by run (id or name), task (as the source names it) and trial.
type TrajectoryRef struct {
	ID    int64
	ByRun bool
	Run   string
	Task  string
	// Trial is the trial number (from 0), with Run; nil: the task's only
	// trial.
	Trial *int
}

// Transcript loads the trajectory ref names, with its run, as
// reports.WriteTranscript prints it: system messages cut to their first
// systemLines lines (0: whole). It fails with db's errors for an unknown
// run or trajectory, and with an EREQUEST error for a negative Trial or,
// with no Trial, a task of several trials.
func Transcript(ctx context.Context, store *db.DB, ref TrajectoryRef, systemLines int) (reports.Transcript, error) {
	id := ref.ID
	if ref.ByRun {
		var err error
		if id, err = trajectoryByRun(ctx, store, ref); err != nil {
			return reports.Transcript{}, err
		}
	}
	traj, err := store.FindTrajectory(ctx, id)
	if err != nil {
		return reports.Transcript{}, err
	}
	run, err := store.FindRun(ctx, traj.RunID)
	if err != nil {
		return reports.Transcript{}, err
	}
	return reports.Transcript{ID: traj.ID, Run: run, Trajectory: traj.Trajectory, SystemLines: systemLines}, nil
}

// trajectoryByRun resolves ref's run, task and trial to a trajectory id;
// without a trial, the task's only trajectory.
func trajectoryByRun(ctx context.Context, store *db.DB, ref TrajectoryRef) (int64, error) {
	runID, err := store.ResolveRun(ctx, ref.Run)
	if err != nil {
		return 0, err
	}
	trial := -1
	if ref.Trial != nil {
		if trial = *ref.Trial; trial < 0 {
			return 0, settingf("trial", "%d: trials are numbered from 0", trial)
		}
	}
	id, err := store.FindTrajectoryID(ctx, runID, ref.Task, trial)
	if trial < 0 && errors.Is(err, emobench.ErrInvalid) {
		return 0, settingf("trial", "needed: %v", err)
	}
	return id, err
}

// WriteTranscriptJSON writes t as `show --format json` prints it: one
// indented object in the layout of `export --format jsonl`'s lines
// (export.JSONLRecord: run, task, trial, reward, termination_reason,
// reward_info, messages with their tool calls, …), which `emobench
// evaluate` reads back. System messages are whole.
func WriteTranscriptJSON(w io.Writer, t reports.Transcript) error {
	run := t.Run
	b, err := json.MarshalIndent(export.JSONLRecordOf(&run, t.Trajectory), "", "  ")
	if err != nil {
		return fmt.Errorf("trajectory %d: %w", t.ID, err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// WriteTranscriptAs writes t in format: json (WriteTranscriptJSON), else
// text (reports.WriteTranscript).
func WriteTranscriptAs(w io.Writer, t reports.Transcript, format string) error {
	if format == "json" {
		return WriteTranscriptJSON(w, t)
	}
	return reports.WriteTranscript(w, t)
}
