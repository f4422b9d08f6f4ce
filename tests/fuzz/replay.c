/*
 * replay.c: a main() for the fuzz targets where libFuzzer is missing (the
 * gcc builds).  Each argument is a file, or a directory whose regular
 * files are read in name order; every file is passed once to
 * LLVMFuzzerTestOneInput() in a heap buffer of exactly its size, so the
 * ASan build catches a read past the input.  Exit 0 after the last input;
 * a target that finds a broken promise aborts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Targets that define no LLVMFuzzerInitialize() get this one. */
__attribute__((weak)) int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int
replay_file(const char *path)
{
	FILE		*fp;
	struct stat	 st;
	uint8_t		*buf;
	size_t		 n;

	if ((fp = fopen(path, "rb")) == NULL || fstat(fileno(fp), &st) != 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (fp != NULL)
			fclose(fp);
		return -1;
	}
	n = (size_t)st.st_size;
	if ((buf = malloc(n > 0 ? n : 1)) == NULL ||
	    fread(buf, 1, n, fp) != n) {
		fprintf(stderr, "replay: %s: cannot read it\n", path);
		free(buf);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int
replay_dir(const char *dir, int *count)
{
	struct dirent	**ents;
	struct stat	  st;
	char		  path[4096];
	int		  i, n, rc = 0;

	if ((n = scandir(dir, &ents, NULL, alphasort)) < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(path) != 0)
				rc = -1;
			else
				(*count)++;
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

int
main(int argc, char **argv)
{
	struct stat	st;
	int		i, count = 0, rc = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i], &count) != 0)
				rc = 1;
		} else if (replay_file(argv[i]) != 0) {
			rc = 1;
		} else {
			count++;
		}
	}
	fprintf(stderr, "replay: %d inputs, %s\n", count,
	    rc == 0 ? "all passed" : "some could not be read");
	return rc;
}
