/* nfsmount: one NFSv3 mount attempt through mount(2), no user-space helper.
 *
 * Usage: nfsmount DIR
 *
 * Asks the kernel to mount 127.0.0.1:/export on DIR with NFSv3 over TCP,
 * the MOUNT service at port 635 of 127.0.0.1, no locking, one try: the
 * kernel's NFS client creates an RPC client for the MOUNT program and
 * makes one synchronous MNT call.  With no server listening the call
 * fails at once (connection refused) and so does the mount.  Prints
 * "mount: OK" or "mount: ERRNO-NAME" and exits 0 either way; a bad
 * usage exits 1. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	const char *opts = "vers=3,proto=tcp,mountproto=tcp,mountport=635,"
			   "port=2049,nolock,addr=127.0.0.1,"
			   "mountaddr=127.0.0.1,soft,timeo=10,retrans=0";

	if (argc != 2) {
		fprintf(stderr, "usage: nfsmount DIR\n");
		return 1;
	}
	if (mount("127.0.0.1:/export", argv[1], "nfs", 0, opts) == 0) {
		printf("mount: OK\n");
		umount(argv[1]);
		return 0;
	}
	printf("mount: %s\n", errno == ECONNREFUSED ? "ECONNREFUSED" :
	       errno == EACCES ? "EACCES" : strerror(errno));
	return 0;
}
