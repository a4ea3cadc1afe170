package netproxy

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"net/http"
	"net/textproto"
	"strconv"
)

var errChunked = errors.New("malformed chunked encoding")

// chunks relays a chunked body from src (first what buf holds) to dst,
// through w: each chunk's size line read and written anew (without
// extensions), its data moved by exactly (spliced, when large), then the
// trailer fields but hop-by-hop ones. Unframed (to an HTTP/1.0 client),
// the data alone goes. w is flushed whenever buf holds no more of src, so
// a stream's parts (server-sent events) are not held back.
func chunks(dst net.Conn, w *bufio.Writer, src net.Conn, buf *bufio.Reader, framed bool) error {
	for {
		size, err := chunkSize(buf)
		if err != nil {
			return err
		}
		if size == 0 {
			break
		}
		if framed {
			w.WriteString(strconv.FormatInt(size, 16) + "\r\n")
		}
		if err := exactly(dst, w, src, buf, size); err != nil {
			return err
		}
		if crlf, err := buf.Peek(2); err != nil || string(crlf) != "\r\n" {
			return errChunked
		}
		buf.Discard(2)
		if framed {
			w.WriteString("\r\n")
		}
		if buf.Buffered() == 0 {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	trailer, err := readTrailer(buf)
	if err != nil {
		return err
	}
	if framed {
		w.WriteString("0\r\n")
		trailer.WriteSubset(w, hopAndBody)
		w.WriteString("\r\n")
	}
	return w.Flush()
}

// chunkSize reads a chunk's size line (RFC 9112 7.1: hex digits, then
// extensions the proxy drops).
func chunkSize(buf *bufio.Reader) (int64, error) {
	line, err := buf.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return 0, errChunked
		}
		return 0, err
	}
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, " \t\r\n")
	if len(line) == 0 || len(line) > 15 {
		return 0, errChunked
	}
	var n int64
	for _, c := range line {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, errChunked
		}
		n = n<<4 | int64(c)
	}
	return n, nil
}

// readTrailer reads the trailer fields after the last chunk, up to
// maxHeaderBytes of them.
func readTrailer(buf *bufio.Reader) (http.Header, error) {
	var b []byte
	for {
		line, err := buf.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) || len(b)+len(line) > maxHeaderBytes {
			return nil, errHeadTooLarge
		}
		if err != nil {
			return nil, err
		}
		b = append(b, line...)
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			break
		}
	}
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(b))).ReadMIMEHeader()
	return http.Header(h), err
}
