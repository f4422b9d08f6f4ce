/*
 * lab: the simulated lab's entry point on the controller side.  The lab
 * itself is a set of scripts in simlab/ (labctl, faultd, host); this module
 * finds them and runs labctl with an argv (never a shell string).
 *
 * The data directory (simlab/, configs/, schemas/, agents/, laid out as in
 * the source tree) is, first found: $LABRAT_DATADIR; share/labrat of the
 * install the running binary belongs to (found from /proc/self/exe, so a
 * DESTDIR or relocated install uses its own files); the source tree the
 * binary was built from (the build tree's binary); the compiled-in install
 * path.  The simlab directory is $LABRAT_SIMLAB_DIR when set, else
 * DATADIR/simlab.  A lab NAME keeps its state in
 * /run/labrat-lab/NAME/ and `up` writes its inventory to
 * /run/labrat-lab/NAME/inventory.json (lab_inventory_path()).
 */
#ifndef LABRAT_LAB_H
#define LABRAT_LAB_H

#include <stddef.h>

#define LAB_DEFAULT_NAME	"lab"
#define LAB_STATE_ROOT		"/run/labrat-lab"

/* Writes the data directory into buf.  0, or -1 with err set (none of the
 * places exists, or $LABRAT_DATADIR is not a directory). */
int	lab_datadir(char *buf, size_t len, char *err, size_t errlen);

/*
 * Writes the simlab directory into buf.  0, or -1 with err set (no such
 * directory, or no labctl in it).
 */
int	lab_simlab_dir(char *buf, size_t len, char *err, size_t errlen);

/* True when name is a valid lab name (^[a-z][a-z0-9-]{0,31}$). */
int	lab_name_valid(const char *name);

/* The inventory path of lab name: heap string the caller frees. */
char	*lab_inventory_path(const char *name);

/*
 * Runs `labctl SUBCMD ARGS...` (nargs strings) with the caller's stdio and
 * waits for it.  Returns its exit status (0 ok, 1 failure, 2 usage), or -1
 * with err set when it could not be run or died of a signal.
 */
int	lab_labctl(const char *subcmd, char *const args[], size_t nargs,
	    char *err, size_t errlen);

#endif
