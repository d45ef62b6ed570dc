// configs: value value-cegar predicate-cegar default
// read(fd, buf, n) (POSIX.1-2017 read()) on any descriptor returns -1
// (an error) or a count r in [0, n]: fewer bytes than asked for when
// fewer are available (a pipe, a socket, a terminal: a short read), 0 at
// end of file; when r > 0 it has stored r bytes, any bytes, in
// buf[0..r) and left the rest of buf unchanged. Each count and each
// byte is an input: a bug they trigger is a FALSE with them as its
// inputs. read(0, ...) reads descriptor 0 itself, not stdin's buffer.
// (symex-cegar does not finish line 17 in two minutes.)
#include "../sv.h"
#include <unistd.h>

// A negative descriptor is never open: read fails (EBADF).
static void bad_fd(void) {
	char b[2];
	ssize_t r = read(-1, b, 2);
	assert(r == -1);                                     // want TRUE
}

int main(void) {
	bad_fd();
	char buf[4] = {'z', 'z', 'z', 'z'};
	ssize_t r = read(0, buf, 3);
	assert(r >= -1 && r <= 3);                           // want TRUE
	assert(buf[3] == 'z');                               // want TRUE
	if (r <= 0) {
		assert(buf[0] == 'z' && buf[2] == 'z');          // want TRUE
		return 0;
	}
	assert(r == 3 || buf[2] == 'z');                     // want TRUE
	assert(!(r == 2 && buf[0] == 'o' && buf[1] == 'k')); // want FALSE
	char rest[4];
	size_t len = 0;
	while (len < sizeof rest) {
		ssize_t k = read(0, rest + len, sizeof rest - len);
		if (k <= 0)
			break;
		len += (size_t)k;
	}
	assert(len <= sizeof rest);                          // want TRUE
	assert(len < 3 || rest[2] != '!');                   // want FALSE
	return 0;
}
