/*
 * config_int: private to the config module (config*.c): the JSON walk that
 * collects errors with their paths, the key tables, and the parts the
 * plan and bisect-test loaders share.  json_object stays inside the module.
 */
#ifndef LABRAT_CONFIG_INT_H
#define LABRAT_CONFIG_INT_H

#include "config.h"

struct json_object;

#define CONFIG_PATHLEN	256	/* longer paths are cut short with "..." */
#define CONFIG_LOWER	"abcdefghijklmnopqrstuvwxyz"
#define CONFIG_UPPER	"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define CONFIG_DIGIT	"0123456789"

struct config_walk {
	const char		*file;
	struct config_errors	*errs;
	const char		*dir;	/* inventory directory, for paths */
};

void	config_werr(struct config_walk *, const char *path, const char *,
	    ...) __attribute__((format(printf, 3, 4)));
size_t	config_nerrors(struct config_walk *);
/* out (CONFIG_PATHLEN bytes) = path.key / path[i] */
void	config_path_key(char *out, const char *path, const char *key);
void	config_path_index(char *out, const char *path, size_t i);
/* A value as JSON text for a message, truncated. */
void	config_fmtval(struct json_object *, char *, size_t);
/* Types are enum json_type values, as int to keep json-c out of here. */
int	config_want(struct config_walk *, const char *path,
	    struct json_object *, int json_type);
/* Reports keys of o not in keys[]; what qualifies ("for tool scp"). */
void	config_check_keys(struct config_walk *, const char *path,
	    struct json_object *o, const char *const *keys, const char *what);
/*
 * o[key], or NULL when absent (reported if required) or JSON null: null is
 * reported as a type error ("null is not <json_type>") unless json_type is
 * json_type_null (the schema allows null there; it reads as absent).
 */
struct json_object *config_member(struct config_walk *, const char *path,
	    struct json_object *o, const char *key, int required,
	    int json_type);
/*
 * Typed members: 1 when set, 0 when absent (optional), -1 on an error
 * (reported).  Strings are borrowed from o.
 */
int	config_get_str(struct config_walk *, const char *path,
	    struct json_object *o, const char *key, int required, size_t max,
	    const char **out);
int	config_get_int(struct config_walk *, const char *path,
	    struct json_object *o, const char *key, int required,
	    long long min, long long max, int *out);
int	config_get_num(struct config_walk *, const char *path,
	    struct json_object *o, const char *key, double min, int min_open,
	    double max, double *out);
int	config_get_bool(struct config_walk *, const char *path,
	    struct json_object *o, const char *key, int *out);
int	config_get_enum(struct config_walk *, const char *path,
	    struct json_object *o, const char *key, int required,
	    const char *const *names, int *out);
/* A string satisfying valid(); *dst replaced by a heap copy. */
int	config_get_pattern(struct config_walk *, const char *path,
	    struct json_object *o, const char *key, int required, size_t max,
	    int (*valid)(const char *), const char *what, char **dst);
/* An array of 1..max entries / an object, or NULL (reported if present). */
struct json_object *config_get_array(struct config_walk *, const char *path,
	    struct json_object *o, const char *key, int required, size_t max);
struct json_object *config_get_object(struct config_walk *,
	    const char *path, struct json_object *o, const char *key,
	    int required);

/*
 * Shared by the plan and bisect-test loaders (config_plan.c): one workload
 * object at path into *wl (its "links" checked against plan's links; plan
 * NULL: the caller refused "links"), the plan defaults, and a workload's
 * deep copy (dst's heap parts are new) and release (its heap parts).
 */
void	config_parse_workload(struct config_walk *, const char *path,
	    struct json_object *o, const struct config_plan *plan,
	    struct config_workload *wl);
void	config_plan_defaults(struct config_plan *);
void	config_workload_copy(struct config_workload *dst,
	    const struct config_workload *src);
void	config_workload_clear(struct config_workload *);

int	config_all_in(const char *s, const char *set);
/* A metric name: [a-z][a-z0-9_]{0,62}. */
int	config_valid_metric(const char *);
int	config_name_index(const char *const *names, const char *s);
/* A JSON object from text (owned by the caller: json_object_put()). */
struct json_object *config_parse_text(const char *file, const char *text,
	    size_t len, struct config_errors *);
/* The directory of path, absolute (heap; relative to the working
 * directory when path is relative). */
char	*config_dir_of(const char *path);
/* A file's text (heap), or NULL with the error added. */
char	*config_read_text(const char *path, size_t *lenp,
	    struct config_errors *);

extern const char *const config_keys_inventory[], *const config_keys_host[],
    *const config_keys_ssh[], *const config_keys_nic[],
    *const config_keys_kernel_fbsd[], *const config_keys_kernel_linux[],
    *const config_keys_kernel_command[], *const config_keys_power_command[],
    *const config_keys_power_url[], *const config_keys_link[],
    *const config_keys_endpoint[], *const config_keys_plan[],
    *const config_keys_per_link_entry[],
    *const config_keys_workload_iperf[], *const config_keys_workload_scp[],
    *const config_keys_timeouts[], *const config_keys_stats[],
    *const config_keys_metric[];
extern const char *const config_os_names[], *const config_role_names[],
    *const config_kernel_names[], *const config_method_names[],
    *const config_tool_names[], *const config_tso_on_names[];

#endif
