/*
 * tmpdir_fixture.h: a private temporary directory for a test program
 * ($TMPDIR, else /tmp) and its removal with everything below it.
 * Header-only (static functions) so each test program carries its own copy.
 */
#ifndef LABRAT_TMPDIR_FIXTURE_H
#define LABRAT_TMPDIR_FIXTURE_H

#include <sys/stat.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

static int
fx_rm_entry(const char *path, const struct stat *sb, int flag,
    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* dir = $TMPDIR/lr-TAG-XXXXXX, created.  0, or -1 (mkdtemp failed). */
static int
fx_tmpdir(char *dir, size_t len, const char *tag)
{
	const char	*t = getenv("TMPDIR");

	snprintf(dir, len, "%s/lr-%s-XXXXXX",
	    t != NULL && *t != '\0' ? t : "/tmp", tag);
	return mkdtemp(dir) == NULL ? -1 : 0;
}

/* Removes dir and everything below it (symbolic links not followed). */
static void
fx_rmtree(const char *dir)
{
	nftw(dir, fx_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
