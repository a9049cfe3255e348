/* pyembed: a C program embedding CPython through libpython3.11.so.1.0, as
 * uWSGI or mod_wsgi do: it initialises the interpreter in its main
 * thread, then runs a Python file on a thread of its own (created with
 * pthreads, attached to the interpreter with PyGILState_Ensure) while
 * the main thread waits for it, and finalises the interpreter.
 *
 * Usage: pyembed FILE
 *
 * The interpreter runs as `python3.11 -S -E -X utf8` would (no site
 * module, the environment ignored, UTF-8 whatever the locale: the
 * python3.11 program's own choice in the C locale).  Exit status: the file's (0, or 1 when it raised
 * an exception, reported on stderr by Python); 2 on a usage or setup
 * error.  lab/python3_embed traces it with the python3 tapset's
 * libpython probes.
 *
 * The few functions of CPython's C API it calls are declared here (the
 * 3.11 stable ABI), so that it builds against the library alone, without
 * Python's headers. */
#include <pthread.h>
#include <stdio.h>

extern int Py_NoSiteFlag, Py_IgnoreEnvironmentFlag, Py_UTF8Mode;
void Py_InitializeEx(int initsigs);
int Py_FinalizeEx(void);
void *PyEval_SaveThread(void);
void PyEval_RestoreThread(void *tstate);
int PyGILState_Ensure(void);
void PyGILState_Release(int state);
int PyRun_SimpleFileExFlags(FILE *fp, const char *filename, int closeit,
			    void *flags);

static const char *file;
static int status;

/* run - the Python file, on this thread attached to the interpreter */
static void *run(void *arg)
{
	FILE *fp = fopen(file, "r");
	int gil;
	(void)arg;
	if (!fp) {
		perror(file);
		status = 2;
		return NULL;
	}
	gil = PyGILState_Ensure();
	status = PyRun_SimpleFileExFlags(fp, file, 1, NULL) ? 1 : 0;
	PyGILState_Release(gil);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *ts;
	if (argc != 2) {
		fprintf(stderr, "usage: pyembed FILE\n");
		return 2;
	}
	file = argv[1];
	Py_NoSiteFlag = 1;
	Py_IgnoreEnvironmentFlag = 1;
	Py_UTF8Mode = 1;
	Py_InitializeEx(0);
	ts = PyEval_SaveThread();      /* the GIL, for the file's thread */
	if (pthread_create(&t, NULL, run, NULL)) {
		fprintf(stderr, "pyembed: cannot create a thread\n");
		return 2;
	}
	pthread_join(t, NULL);
	PyEval_RestoreThread(ts);
	if (Py_FinalizeEx() < 0 && !status)
		status = 1;
	return status;
}
