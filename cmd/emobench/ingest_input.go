package main

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
	"time"

	"github.com/dustin/go-humanize"
	"github.com/emobench/emobench"
)

// stdinArg is the argument that names standard input.
const stdinArg = "-"

// maxDetectSlack is what format detection may read, and hold in memory to
// be parsed again, beyond --max-record: it reads at most one record-sized
// value (a first key's) and a few keys before it knows the format.
const maxDetectSlack = 1 << 20

// input is one file to ingest, opened once. A regular file is read in
// passes from its one open descriptor, each pass hashed; finish checks
// that every pass read the same bytes. Anything else (a pipe, a FIFO, a
// device, standard input) is a stream, read once as it comes.
type input struct {
	path    string // as shown to the user; "stdin" for -
	ctx     context.Context
	file    *os.File // nil for an io.Reader stdin
	stream  *ctxReader
	regular bool
	size    int64 // regular files: size when opened
	modTime time.Time
	sum     string // regular files: sha256 of the first, whole-file pass

	pass     io.Reader // the current pass, through hash
	hash     hash.Hash
	passSums []string // sums of the passes already finished
	started  bool     // a stream's only pass has been handed out
	spool    *spoolFile
}

// streamInput is r, read once as a stream named path (an embedded file).
func streamInput(ctx context.Context, path string, r io.Reader) *input {
	return &input{path: path, ctx: ctx, stream: newCtxReader(ctx, r)}
}

// openInput opens path (or stdin for "-") without blocking past ctx: a
// FIFO without a writer blocks open(2), so the open runs aside and is
// abandoned when ctx ends.
func openInput(ctx context.Context, path string, stdin io.Reader) (*input, error) {
	if path == stdinArg {
		in := &input{path: "stdin", ctx: ctx}
		in.stream = newCtxReader(ctx, stdin)
		return in, nil
	}
	f, err := openCtx(ctx, path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	in := &input{path: path, ctx: ctx, file: f}
	switch {
	case info.IsDir():
		f.Close()
		return nil, errors.New("is a directory")
	case info.Mode().IsRegular():
		in.regular, in.size, in.modTime = true, info.Size(), info.ModTime()
	default:
		in.stream = newCtxReader(ctx, f)
	}
	return in, nil
}

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
func (in *input) Close() {
	if in.stream != nil {
		in.stream.Close()
	}
	if in.file != nil {
		in.file.Close()
	}
	if in.spool != nil {
		in.spool.Close()
	}
}

// source describes the input for the run it becomes.
func (in *input) source() source {
	return source{path: in.path, modTime: in.modTime}
}

// hashAll reads a regular file once, whole, for its sha256 (in.sum).
func (in *input) hashAll() error {
	h := sha256.New()
	n, err := io.Copy(h, newCtxReader(in.ctx, io.NewSectionReader(in.file, 0, math.MaxInt64)))
	if err != nil {
		return err
	}
	in.sum, in.size = hex.EncodeToString(h.Sum(nil)), n
	return nil
}

// newPass returns the input from its first byte, hashed as it is read. A
// stream has one pass only.
func (in *input) newPass() (io.Reader, error) {
	if in.pass != nil {
		if err := in.endPass(); err != nil {
			return nil, err
		}
	}
	in.hash = sha256.New()
	if in.regular {
		in.pass = io.TeeReader(newCtxReader(in.ctx, io.NewSectionReader(in.file, 0, math.MaxInt64)), in.hash)
		return in.pass, nil
	}
	if in.started {
		return nil, errors.New("a stream cannot be read twice")
	}
	in.started = true
	in.pass = io.TeeReader(in.stream, in.hash)
	return in.pass, nil
}

// endPass reads the current pass to its end (a reader that stopped at the
// last JSON value leaves nothing but space) and keeps its sha256.
func (in *input) endPass() error {
	if _, err := io.Copy(io.Discard, in.pass); err != nil {
		return err
	}
	in.passSums = append(in.passSums, hex.EncodeToString(in.hash.Sum(nil)))
	in.pass = nil
	return nil
}

// finish ends the last pass and returns the sha256 of the bytes parsed.
// For a regular file every pass must have read what the first pass
// hashed; otherwise the file changed while it was read, and the error says
// so.
func (in *input) finish() (string, error) {
	if in.pass != nil {
		if err := in.endPass(); err != nil {
			return "", err
		}
	}
	if len(in.passSums) == 0 {
		return "", errors.New("nothing was read")
	}
	if !in.regular {
		return in.passSums[0], nil
	}
	for _, s := range in.passSums {
		if s != in.sum {
			return "", fmt.Errorf("changed while it was read (sha256 %s when first read, %s when parsed): nothing of it was stored; ingest it again once nothing writes to it", in.sum, s)
		}
	}
	return in.sum, nil
}

// verified yields what trajectories yields, then the error of check, if
// any: a transaction storing them then keeps nothing.
func verified(trajectories iter.Seq2[*emobench.Trajectory, error], check func() error) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		for traj, err := range trajectories {
			if !yield(traj, err) || err != nil {
				return
			}
		}
		if err := check(); err != nil {
			yield(nil, err)
		}
	}
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

// ctxReader ends a read when ctx ends. A stream is read by a goroutine, so
// that even a read that blocks (a FIFO whose writer is silent, a terminal)
// gives way; the goroutine ends with its read, or with the process.
type ctxReader struct {
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

func newCtxReader(ctx context.Context, r io.Reader) *ctxReader {
	if _, ok := r.(*io.SectionReader); ok {
		return &ctxReader{ctx: ctx, r: r} // a regular file: reads do not block
	}
	c := &ctxReader{ctx: ctx, r: r, chunks: make(chan chunk), stop: make(chan struct{})}
	go c.pump(c.stop)
	return c
}

// Close ends the pump once its read in flight returns.
func (c *ctxReader) Close() {
	if c.stop != nil {
		close(c.stop)
		c.stop = nil
	}
}

// pump reads into two buffers in turn: the reader is done with one by the
// time it takes the other, as the channel has no buffer.
func (c *ctxReader) pump(stop <-chan struct{}) {
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

func (c *ctxReader) Read(p []byte) (int, error) {
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

// parseByteSize reads a --max-spool or --max-record value such as 4GiB,
// 500MB or 1000000.
func parseByteSize(flag, s string) (int64, error) {
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > math.MaxInt64 {
		return 0, usagef("--%s %q is not a size such as 4GiB, 512MiB or 1000000", flag, s)
	}
	return int64(n), nil
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
