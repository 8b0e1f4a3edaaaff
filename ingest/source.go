package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"iter"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/emobench/emobench"
)

// StdinArg is the argument that names standard input.
const StdinArg = "-"

// maxDetectSlack is what format detection may read, and hold in memory to
// be parsed again, beyond the record limit: it reads at most one
// record-sized value (a first key's) and a few keys before it knows the
// format.
const maxDetectSlack = 1 << 20

// sourceKind tells how a Source is read.
type sourceKind int

const (
	kindFile   sourceKind = iota // a regular file, read in passes
	kindStream                   // a pipe, FIFO, device, stdin or embedded file: read once
	kindDir                      // a τ²-bench 1.x run directory
)

// Source is one input to ingest, opened once and hashed while it is read.
// A regular file is hashed whole first (Hash), so a file already stored
// can be skipped unread; it is then read in passes from its one open
// descriptor, each pass hashed, and the trajectories Open yields end with
// an error when a pass read other bytes than Hash did. A stream (a pipe, a
// FIFO, a device, standard input) is read once as it comes, its sha256
// known at Finish. A τ²-bench run directory is hashed over results.json
// and then its sorted simulation files, each checked again as it is parsed.
type Source struct {
	// Path names the source to the user: the argument as given, "stdin"
	// for StdinArg, or a stream's name.
	Path string
	// ModTime is the file's modification time (results.json's for a run
	// directory); zero for a stream.
	ModTime time.Time
	// Size is a regular file's size in bytes (when hashed); 0 otherwise.
	Size int64

	ctx    context.Context
	kind   sourceKind
	file   *os.File // nil for an io.Reader stdin or a directory
	stream *ContextReader
	sum    string // files and directories: sha256 of Hash's pass

	pass     io.Reader // the current pass, through hash
	hash     hash.Hash
	passSums []string // sums of the passes already finished
	started  bool     // a stream's only pass has been handed out
	spool    *spoolFile
	verify   *verifyFS // directories
	current  io.Reader // what a Format's Open reads: the pass detection read, from its first byte
	stops    []func()  // ends readers left unfinished
}

// StreamSource is r, read once as a stream named name (an embedded file,
// say).
func StreamSource(ctx context.Context, name string, r io.Reader) *Source {
	return &Source{Path: name, ctx: ctx, kind: kindStream, stream: NewContextReader(ctx, r)}
}

// OpenSource opens path: a file, a τ²-bench run directory, or stdin for
// StdinArg. It does not block past ctx: a FIFO without a writer blocks
// open(2), so the open runs aside and is abandoned when ctx ends. Errors
// name path.
func OpenSource(ctx context.Context, path string, stdin io.Reader) (*Source, error) {
	if path == StdinArg {
		return StreamSource(ctx, "stdin", stdin), nil
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		s := &Source{Path: path, ctx: ctx, kind: kindDir, verify: &verifyFS{fsys: os.DirFS(path), want: map[string]string{}}}
		if info, err := os.Stat(filepath.Join(path, Tau2ResultsFile)); err == nil {
			s.ModTime = info.ModTime()
		}
		return s, nil
	}
	f, err := openCtx(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &Source{Path: path, ctx: ctx, file: f}
	switch {
	case info.IsDir():
		f.Close()
		return nil, fmt.Errorf("%s: is a directory", path)
	case info.Mode().IsRegular():
		s.Size, s.ModTime = info.Size(), info.ModTime()
	default:
		s.kind = kindStream
		s.stream = NewContextReader(ctx, f)
	}
	return s, nil
}

// IsStream reports whether the source is read once as it comes: its
// sha256 is known only at Finish, and it cannot be hashed first.
func (s *Source) IsStream() bool { return s.kind == kindStream }

// isStdin reports whether the source is standard input (StdinArg), which
// has no file name to read metadata from.
func (s *Source) isStdin() bool { return s.kind == kindStream && s.file == nil && s.Path == "stdin" }

// IsDir reports whether the source is a τ²-bench run directory.
func (s *Source) IsDir() bool { return s.kind == kindDir }

func openCtx(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return nil, errors.Unwrap(o.err) // the caller names the path
		}
		return o.f, nil
	case <-ctx.Done():
		go func() { // close what a late open returns
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// Close releases the file and the spool (whose file is already unlinked).
func (s *Source) Close() {
	if s.stream != nil {
		s.stream.Close()
	}
	if s.file != nil {
		s.file.Close()
	}
	if s.spool != nil {
		s.spool.Close()
	}
	for _, stop := range s.stops {
		stop()
	}
}

// reader is what a Format's Open reads the source through.
func (s *Source) reader() io.Reader { return s.current }

// verified yields what trajectories yields, then, for a file or a
// directory, the error of Finish, if any: a transaction storing them then
// keeps nothing. A stream's sha256 is checked by whoever stores it.
func (s *Source) verified(trajectories iter.Seq2[*emobench.Trajectory, error]) iter.Seq2[*emobench.Trajectory, error] {
	if s.kind == kindStream {
		return trajectories
	}
	return func(yield func(*emobench.Trajectory, error) bool) {
		for traj, err := range trajectories {
			if !yield(traj, err) || err != nil {
				return
			}
		}
		if _, err := s.Finish(); err != nil {
			yield(nil, err)
		}
	}
}

// peekFirst reads the first trajectory of trajectories now (a reader's
// callbacks about the run fire) and returns the sequence from it again.
// The reader is stopped when the sequence ends, or at Close.
func (s *Source) peekFirst(trajectories iter.Seq2[*emobench.Trajectory, error]) iter.Seq2[*emobench.Trajectory, error] {
	next, stop := iter.Pull2(trajectories)
	s.stops = append(s.stops, stop)
	first, firstErr, ok := next()
	return func(yield func(*emobench.Trajectory, error) bool) {
		defer stop()
		if !ok || !yield(first, firstErr) {
			return
		}
		for {
			traj, err, ok := next()
			if !ok || !yield(traj, err) {
				return
			}
		}
	}
}

// Hash reads a regular file, or every file of a run directory, once for
// its sha256 (hex), which the run's SourceSHA256 then holds. It is read
// only once: a second call returns the same sum. A stream has no sha256
// before it is read: Hash returns an error.
func (s *Source) Hash() (string, error) {
	if s.sum != "" {
		return s.sum, nil
	}
	switch s.kind {
	case kindStream:
		return "", errors.New("a stream's sha256 is known only once it is read")
	case kindDir:
		files, err := Tau2DirFiles(s.verify.fsys)
		if err != nil {
			return "", fmt.Errorf("%s: %w", s.Path, err)
		}
		run := sha256.New()
		for _, name := range files {
			sum, err := hashFile(s.ctx, run, s.verify.fsys, name)
			if err != nil {
				return "", fmt.Errorf("%s: %w", s.Path, err)
			}
			s.verify.want[name] = sum
		}
		s.sum = hex.EncodeToString(run.Sum(nil))
	default:
		h := sha256.New()
		n, err := io.Copy(h, NewContextReader(s.ctx, io.NewSectionReader(s.file, 0, math.MaxInt64)))
		if err != nil {
			return "", fmt.Errorf("%s: %w", s.Path, err)
		}
		s.sum, s.Size = hex.EncodeToString(h.Sum(nil)), n
	}
	return s.sum, nil
}

// hashFile writes file name of fsys to w and returns its own sha256.
func hashFile(ctx context.Context, w io.Writer, fsys fs.FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(w, h), NewContextReader(ctx, f)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// newPass returns the input from its first byte, hashed as it is read. A
// stream has one pass only.
func (s *Source) newPass() (io.Reader, error) {
	if s.pass != nil {
		if err := s.endPass(); err != nil {
			return nil, err
		}
	}
	s.hash = sha256.New()
	if s.kind == kindFile {
		s.pass = io.TeeReader(NewContextReader(s.ctx, io.NewSectionReader(s.file, 0, math.MaxInt64)), s.hash)
		return s.pass, nil
	}
	if s.started {
		return nil, errors.New("a stream cannot be read twice")
	}
	s.started = true
	s.pass = io.TeeReader(s.stream, s.hash)
	return s.pass, nil
}

// endPass reads the current pass to its end (a reader that stopped at the
// last JSON value leaves nothing but space) and keeps its sha256.
func (s *Source) endPass() error {
	if _, err := io.Copy(io.Discard, s.pass); err != nil {
		return err
	}
	s.passSums = append(s.passSums, hex.EncodeToString(s.hash.Sum(nil)))
	s.pass = nil
	return nil
}

// Finish ends the last pass and returns the sha256 (hex) of the bytes
// parsed; it may be called again. For a regular file every pass must have
// read what Hash read; otherwise the file changed while it was read, and
// the error says so. A directory's files are checked as they are read: its
// error is the first file found changed.
func (s *Source) Finish() (string, error) {
	if s.kind == kindDir {
		return s.sum, s.verify.check()
	}
	if s.pass != nil {
		if err := s.endPass(); err != nil {
			return "", err
		}
	}
	if len(s.passSums) == 0 {
		return "", errors.New("nothing was read")
	}
	if s.kind == kindStream {
		return s.passSums[0], nil
	}
	for _, sum := range s.passSums {
		if sum != s.sum {
			return "", fmt.Errorf("changed while it was read (sha256 %s when first read, %s when parsed): nothing of it was stored; ingest it again once nothing writes to it", s.sum, sum)
		}
	}
	return s.sum, nil
}

// detectPrefix reads from r what format detection needs and returns the
// format and a reader giving r from its first byte again. The bytes
// detection reads are held in memory, up to max.
func detectPrefix(r io.Reader, detect func(io.Reader) string, max int64) (string, io.Reader, error) {
	var seen bytes.Buffer
	capped := &capReader{r: io.TeeReader(r, &seen), left: max}
	format := detect(capped)
	if capped.hit {
		return "", nil, fmt.Errorf("cannot tell the format from the first %s: give --format", humanize.IBytes(uint64(max)))
	}
	if capped.err != nil && !errors.Is(capped.err, io.EOF) {
		return "", nil, capped.err
	}
	return format, io.MultiReader(&seen, r), nil
}

// capReader reads at most left bytes of r, remembering why it stopped.
type capReader struct {
	r    io.Reader
	left int64
	hit  bool
	err  error
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		c.hit = true
		return 0, io.ErrUnexpectedEOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// ContextReader ends a read when ctx ends. A stream is read by a goroutine,
// so that even a read that blocks (a FIFO whose writer is silent, a
// terminal) gives way; the goroutine ends with its read, or with the
// process. A read after ctx ended returns ctx.Err().
type ContextReader struct {
	ctx     context.Context
	r       io.Reader
	chunks  chan chunk
	stop    chan struct{} // closed by Close: the pump need not hand over its last read
	pending []byte
	err     error
}

type chunk struct {
	b   []byte
	err error
}

// NewContextReader reads r until ctx ends; Close stops its goroutine.
func NewContextReader(ctx context.Context, r io.Reader) *ContextReader {
	if _, ok := r.(*io.SectionReader); ok {
		return &ContextReader{ctx: ctx, r: r} // a regular file: reads do not block
	}
	c := &ContextReader{ctx: ctx, r: r, chunks: make(chan chunk), stop: make(chan struct{})}
	go c.pump(c.stop)
	return c
}

// Close ends the pump once its read in flight returns.
func (c *ContextReader) Close() {
	if c.stop != nil {
		close(c.stop)
		c.stop = nil
	}
}

// pump reads into two buffers in turn: the reader is done with one by the
// time it takes the other, as the channel has no buffer.
func (c *ContextReader) pump(stop <-chan struct{}) {
	bufs := [2][]byte{make([]byte, 256<<10), make([]byte, 256<<10)}
	for turn := 0; ; turn ^= 1 {
		b := bufs[turn]
		n, err := c.r.Read(b)
		select {
		case c.chunks <- chunk{b[:n], err}:
		case <-c.ctx.Done():
			return
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

func (c *ContextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if c.chunks == nil {
		return c.r.Read(p)
	}
	for len(c.pending) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		select {
		case ch := <-c.chunks:
			c.pending, c.err = ch.b, ch.err
		case <-c.ctx.Done():
			return 0, c.ctx.Err()
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// spoolFile is a temporary file of at most max bytes for what a stream
// cannot give twice. It is unlinked as soon as it is created, so it
// vanishes with the process, however that ends.
type spoolFile struct {
	max     int64
	f       *os.File
	written int64
}

// errSpoolFull is the error of a write past --max-spool.
type errSpoolFull struct{ max int64 }

func (e *errSpoolFull) Error() string {
	return fmt.Sprintf("its simulations come before its tasks (as json.dump(..., sort_keys=True) writes them), so from a pipe they are spooled to a temporary file, which reached --max-spool %s: raise --max-spool, or give the file's path instead of a pipe",
		humanize.IBytes(uint64(e.max)))
}

func (s *spoolFile) Write(p []byte) (int, error) {
	if s.written+int64(len(p)) > s.max {
		return 0, &errSpoolFull{s.max}
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "emobench-spool-*")
		if err != nil {
			return 0, err
		}
		if err := os.Remove(f.Name()); err != nil {
			f.Close()
			return 0, err
		}
		s.f = f
	}
	n, err := s.f.Write(p)
	s.written += int64(n)
	return n, err
}

func (s *spoolFile) Read(p []byte) (int, error) {
	if s.f == nil {
		return 0, io.EOF
	}
	return s.f.Read(p)
}

func (s *spoolFile) Seek(offset int64, whence int) (int64, error) {
	if s.f == nil {
		return 0, nil
	}
	return s.f.Seek(offset, whence)
}

func (s *spoolFile) Close() {
	if s.f != nil {
		s.f.Close()
	}
}

// verifyFS checks, as each file of fsys is read to its end, that it holds
// the bytes whose sha256 want gives: the bytes hashed before are the bytes
// parsed. err is the first file found changed.
type verifyFS struct {
	fsys fs.FS
	want map[string]string
	err  error
}

// ReadDir and Stat pass through: only files' bytes are checked.
func (v *verifyFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(v.fsys, name) }
func (v *verifyFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(v.fsys, name) }

func (v *verifyFS) Open(name string) (fs.File, error) {
	f, err := v.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	want, ok := v.want[name]
	if !ok {
		f.Close()
		return nil, fmt.Errorf("%s appeared while the run was read: nothing of it was stored; ingest it again once nothing writes to it", name)
	}
	return &verifiedFile{File: f, fs: v, name: name, want: want, hash: sha256.New()}, nil
}

type verifiedFile struct {
	fs.File
	fs   *verifyFS
	name string
	want string
	hash hash.Hash
	eof  bool
}

func (f *verifiedFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.hash.Write(p[:n])
	if err == io.EOF {
		f.eof = true
	}
	return n, err
}

func (f *verifiedFile) Close() error {
	if got := hex.EncodeToString(f.hash.Sum(nil)); f.eof && got != f.want && f.fs.err == nil {
		f.fs.err = fmt.Errorf("%s changed while it was read (sha256 %s when first read, %s when parsed): nothing of the run was stored; ingest it again once nothing writes to it", f.name, f.want, got)
	}
	return f.File.Close()
}

// check returns the first change found, or an error for a file that was
// never read to its end.
func (v *verifyFS) check() error { return v.err }
