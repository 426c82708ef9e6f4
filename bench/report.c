// SPDX-License-Identifier: GPL-2.0
/*
 * report - read what the bench's guests wrote and print the table
 * (make bench, make bench-quick).
 *
 *   report [--gate] [--json FILE] [--kernel NAME] [--commit REV]
 *          [--date DATE] BOOT...
 *   report --profile BOOT KALLSYMS [RAW]
 *
 * A BOOT is the prefix of two files a guest run left: BOOT.log, the
 * console (bench.c's "BENCH-W ID OP STATE ROUND N" labels, one a window,
 * and "BENCH-MEM" lines) and BOOT.icount, the plugin's "W ID INSNS NS"
 * lines, one a window in the same order.  For each boot and each
 * workload in each state, the figure is the fewest instructions an
 * operation took over the rounds (work the kernel did meanwhile only
 * ever adds); each ratio is taken within one boot; the table gives each
 * ratio's median over the boots and its spread, (max - min) / median.
 * Host time per operation is printed beside it, noisy: it is how fast
 * the emulator ran, on a shared machine.
 *
 * "Within noise" (the ratios of the module to the stock kernel) is
 * judged against the noise module's own spread in the same boots: the
 * module's ratio may be no further above 1 than the noise module's
 * furthest round was from 1 (its figure over the stock kernel's, round by
 * round), the most that loading a module that does nothing moved.
 *
 * --json also keeps what the ratios come from: the commit and date
 * (--commit, --date), the kernel's build (the guest's uname -v), and
 * every window's raw count.
 *
 * Each judged ratio has a target, and a gate: the bound --gate enforces,
 * the target itself once it is met.  --gate: exit 1 if a ratio passes
 * its gate or a spread exceeds 1 % (with one boot, no spread is known
 * and none is checked).
 *
 * --profile: BOOT's plugin ran with profile=on; the instructions each
 * profiled operation spent in each kernel function (KALLSYMS: the
 * guest's /proc/kallsyms, the module's symbols included), as the
 * difference from its baseline: a nosecurity exec from an open + plain
 * exec, a forced exec from a plain one, fork + exec with 10,000 tracked
 * tasks from none.  RAW, when given, gets what the differences come from:
 * each way's instructions per operation in every function.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BOOTS	16
#define MAX_ROUNDS	100

/* Must match bench.c's BENCH_OPS and state names. */
static const char *const op_names[] = {
	"fork", "fork_exec", "exec", "getpid", "prctl", "exec_open",
	"exec_nosec", "exec_forced", "getpid_restricted", "getpid_seccomp",
	"fork_exec_10k", "fork_exec_10k_untracked", "fork_exec_100k",
	"fork_exec_100k_untracked", "settle", "fork_exec_base",
	"getpid_child", "exec_nosec_raw", "fork_exec_tree",
	"fork_exec_forced_tree", "shell_tree", "shell_forced_tree",
};
#define OP_NR	(sizeof(op_names) / sizeof(op_names[0]))
static const char *const state_names[] = { "stock", "null", "nosec",
					    "native" };
#define ST_NR	4
enum { ST_STOCK, ST_NULL, ST_NOSEC, ST_NATIVE };

/* One boot's figures: per workload and state, each round's. */
/* One measured window as the guest labelled it, before any division. */
struct window {
	int op, st, round, iters;
	double insns, ns;
};

#define MAX_WINDOWS	4096

struct boot {
	const char *name;
	char build[256];		/* uname -v, when the guest printed it */
	struct window *win;
	int nr_win;
	double insns[OP_NR][ST_NR][MAX_ROUNDS];	/* per operation */
	double ns[OP_NR][ST_NR][MAX_ROUNDS];
	int n[OP_NR][ST_NR];
	double mem_tracked[8], mem_untracked[8];
	int n_mem;
	char settled[512];
};

static struct boot boots[MAX_BOOTS];
static int nr_boots;

/* How a ratio is judged. */
enum bound_kind {
	BOUND_NONE,	/* shown, not judged (the peers and the baselines) */
	BOUND_MAX,	/* ratio <= target */
	BOUND_NOISE,	/* ratio - 1 <= the noise module's furthest round */
};

/*
 * A ratio of two figures of one boot.  @target is what the project aims
 * at; @gate, when not 0, is the bound --gate enforces instead, for a
 * target not met yet: a little above today's figure, so that a
 * regression fails the run while the target stands in the table.
 */
struct ratio {
	const char *name;
	const char *what;
	const char *num_op;
	int num_state;
	const char *den_op;
	int den_state;
	enum bound_kind kind;
	double target;
	double gate;
};

/* "Within noise": see the top of this file (noise_bound()). */
static const struct ratio ratios[] = {
	{ "fork", "fork + exit, module / stock",
	  "fork", ST_NOSEC, "fork", ST_STOCK, BOUND_NOISE, 0, 0 },
	{ "fork_exec", "fork + exec, module / stock",
	  "fork_exec", ST_NOSEC, "fork_exec", ST_STOCK, BOUND_NOISE, 0, 0 },
	/*
	 * Gate 1.005: a boot whose noise module moved little (a quick one
	 * on 6.1: +-0.21 %) holds the module's own cost, about 0.3 % of an
	 * exec, to a bound that full runs meet (6.1 1.0027, 6.12 1.0026).
	 */
	{ "exec", "exec, module / stock",
	  "exec", ST_NOSEC, "exec", ST_STOCK, BOUND_NOISE, 0, 1.005 },
	{ "getpid", "getpid, module / stock",
	  "getpid", ST_NOSEC, "getpid", ST_STOCK, BOUND_NOISE, 0, 0 },
	{ "prctl", "prctl(PR_GET_DUMPABLE), module / stock",
	  "prctl", ST_NOSEC, "prctl", ST_STOCK, BOUND_MAX, 1.01, 0 },
	{ "exec_nosec_vs_plain", "nosecurity exec (library) / plain exec",
	  "exec_nosec", ST_NOSEC, "exec", ST_NOSEC, BOUND_MAX, 1.015, 1.02 },
	{ "exec_nosec_raw_vs_plain",
	  "execveat(AT_EXECVE_NO_TRANSITION) / plain exec",
	  "exec_nosec_raw", ST_NOSEC, "exec", ST_NOSEC, BOUND_NONE, 0, 0 },
	{ "exec_forced", "forced exec / plain exec",
	  "exec_forced", ST_NOSEC, "exec", ST_NOSEC, BOUND_MAX, 1.01, 1.015 },
	{ "forced_tree", "fork + exec + exit + wait, forced tree / plain tree",
	  "fork_exec_forced_tree", ST_NOSEC, "fork_exec_tree", ST_NOSEC,
	  BOUND_MAX, 1.01, 0 },
	{ "forced_shell", "a shell's commands (PATH search, fork, exec, exit, wait), forced / plain",
	  "shell_forced_tree", ST_NOSEC, "shell_tree", ST_NOSEC,
	  BOUND_MAX, 1.01, 0 },
	{ "getpid_restricted", "getpid, restricted child / plain child",
	  "getpid_restricted", ST_NOSEC, "getpid_child", ST_NOSEC, BOUND_MAX, 1.005, 0 },
	{ "getpid_seccomp", "getpid under a one-rule seccomp filter / plain child (stock)",
	  "getpid_seccomp", ST_STOCK, "getpid_child", ST_STOCK, BOUND_NONE, 0, 0 },
	{ "fork_exec_10k", "fork + exec, 10,000 tracked tasks / none",
	  "fork_exec_10k", ST_NOSEC, "fork_exec_base", ST_NOSEC, BOUND_MAX, 1.01, 0 },
	{ "fork_exec_10k_untracked", "fork + exec, 10,000 untracked tasks / none",
	  "fork_exec_10k_untracked", ST_NOSEC, "fork_exec_base", ST_NOSEC,
	  BOUND_NONE, 0, 0 },
	{ "fork_exec_100k", "fork + exec, 100,000 tracked tasks / none",
	  "fork_exec_100k", ST_NOSEC, "fork_exec_base", ST_NOSEC, BOUND_MAX, 1.01, 1.02 },
	{ "fork_exec_100k_untracked", "fork + exec, 100,000 untracked tasks / none",
	  "fork_exec_100k_untracked", ST_NOSEC, "fork_exec_base", ST_NOSEC,
	  BOUND_NONE, 0, 0 },
	{ "fork_exec_100k_tracking", "fork + exec, 100,000 tracked / untracked tasks",
	  "fork_exec_100k", ST_NOSEC, "fork_exec_100k_untracked", ST_NOSEC,
	  BOUND_NONE, 0, 0 },
	/* bench --native: the series' own costs, the module's limit. */
	{ "native_nosec_vs_plain",
	  "native: execveat(AT_EXECVE_NO_TRANSITION) / plain exec",
	  "exec_nosec_raw", ST_NATIVE, "exec", ST_NATIVE, BOUND_NONE, 0, 0 },
	{ "native_nosec_library_vs_plain",
	  "native: nosecurity exec (library) / plain exec",
	  "exec_nosec", ST_NATIVE, "exec", ST_NATIVE, BOUND_MAX, 1.008, 0 },
	{ "native_forced_vs_plain", "native: forced exec / plain exec",
	  "exec_forced", ST_NATIVE, "exec", ST_NATIVE, BOUND_NONE, 0, 0 },
};
#define NR_RATIOS	(sizeof(ratios) / sizeof(ratios[0]))

static int op_index(const char *name)
{
	for (size_t i = 0; i < OP_NR; i++)
		if (!strcmp(op_names[i], name))
			return i;
	return -1;
}

static int state_index(const char *name)
{
	for (int i = 0; i < ST_NR; i++)
		if (!strcmp(state_names[i], name))
			return i;
	return -1;
}

static void fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "report: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\n");
	exit(2);
}

static FILE *open_part(const char *prefix, const char *ext)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", prefix, ext);
	f = fopen(path, "r");
	if (!f)
		fail("%s: %s", path, strerror(errno));
	return f;
}

/* The next plugin window line of @f, skipping profile lines. */
static bool next_window(FILE *f, unsigned int *id, double *insns, double *ns)
{
	char line[256];

	while (fgets(line, sizeof(line), f)) {
		unsigned long long i, n;

		if (line[0] == 'X')
			fail("plugin: %s%s", line, "");
		if (sscanf(line, "W %u %llu %llu", id, &i, &n) == 3) {
			*insns = i;
			*ns = n;
			return true;
		}
	}
	return false;
}

static void read_boot(const char *prefix)
{
	struct boot *b = &boots[nr_boots++];
	FILE *log = open_part(prefix, ".log");
	FILE *ic = open_part(prefix, ".icount");
	char line[512];
	int windows = 0;

	b->name = prefix;
	b->win = calloc(MAX_WINDOWS, sizeof(*b->win));
	if (!b->win)
		fail("%s: %s", prefix, strerror(errno));
	while (fgets(line, sizeof(line), log)) {
		char op[64], st[16];
		unsigned int id, wid;
		int round, iters, o, s;
		double insns, ns, tr, un, stock;

		line[strcspn(line, "\r\n")] = '\0';
		if (!strncmp(line, "# settled", 9))
			snprintf(b->settled, sizeof(b->settled), "%s", line + 2);
		/* bench.c's first line: "# bench: N rounds, kernel R (V)". */
		if (!strncmp(line, "# bench: ", 9) && strstr(line, ", kernel ") &&
		    strchr(line, '(') && !b->build[0])
			snprintf(b->build, sizeof(b->build), "%.*s",
				 (int)(strrchr(line, ')') ? strrchr(line, ')') -
				       strchr(line, '(') - 1 : 0),
				 strchr(line, '(') + 1);
		/* bench.c's memory(): the module's bytes per task. */
		if (sscanf(line, "BENCH-MEM %*d %lf %lf %lf", &stock, &un,
			   &tr) == 3 && b->n_mem < 8) {
			b->mem_tracked[b->n_mem] = tr - un;
			b->mem_untracked[b->n_mem++] = un - stock;
		}
		if (sscanf(line, "BENCH-W %x %63s %15s %d %d", &id, op, st,
			   &round, &iters) != 5)
			continue;
		if (!next_window(ic, &wid, &insns, &ns))
			fail("%s: more labels than windows (at %s)", prefix, op);
		if (wid != id)
			fail("%s: window and label disagree (at %s)", prefix, op);
		o = op_index(op);
		s = state_index(st);
		if (o < 0 || s < 0 || iters <= 0)
			fail("%s: bad label %s", prefix, line);
		if (b->n[o][s] < MAX_ROUNDS) {
			b->insns[o][s][b->n[o][s]] = insns / iters;
			b->ns[o][s][b->n[o][s]++] = ns / iters;
		}
		if (b->nr_win == MAX_WINDOWS)
			fail("%s: more than %s windows", prefix, "4096");
		b->win[b->nr_win++] = (struct window){ o, s, round, iters,
						       insns, ns };
		windows++;
	}
	if (!windows)
		fail("%s: no windows%s", prefix, "");
	fclose(log);
	fclose(ic);
}

static double min_of(const double *v, int n)
{
	double m = v[0];

	for (int i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(const double *v, int n)
{
	double s[MAX_ROUNDS > MAX_BOOTS ? MAX_ROUNDS : MAX_BOOTS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* One boot's figure for a workload in a state; NAN when not measured. */
static double figure(const struct boot *b, int op, int st)
{
	return b->n[op][st] ? min_of(b->insns[op][st], b->n[op][st]) : NAN;
}

static double host_ns(const struct boot *b, int op, int st)
{
	return b->n[op][st] ? median_of(b->ns[op][st], b->n[op][st]) : NAN;
}

struct spread {
	double median, min, max, rel;	/* rel: (max - min) / median */
	int n;
};

/* The spread over the boots of f(boot). */
static struct spread over_boots(double (*f)(const struct boot *, const void *),
				const void *arg)
{
	double v[MAX_BOOTS];
	struct spread s = { NAN, NAN, NAN, NAN, 0 };

	for (int i = 0; i < nr_boots; i++) {
		double x = f(&boots[i], arg);

		if (!isnan(x))
			v[s.n++] = x;
	}
	if (!s.n)
		return s;
	s.median = median_of(v, s.n);
	s.min = v[0];
	s.max = v[0];
	for (int i = 1; i < s.n; i++) {
		s.min = fmin(s.min, v[i]);
		s.max = fmax(s.max, v[i]);
	}
	s.rel = (s.max - s.min) / s.median;
	return s;
}

static double ratio_of(const struct boot *b, const void *arg)
{
	const struct ratio *q = arg;

	return figure(b, op_index(q->num_op), q->num_state) /
	       figure(b, op_index(q->den_op), q->den_state);
}

static double num_host_of(const struct boot *b, const void *arg)
{
	const struct ratio *q = arg;

	return host_ns(b, op_index(q->num_op), q->num_state) /
	       host_ns(b, op_index(q->den_op), q->den_state);
}

static double den_figure_of(const struct boot *b, const void *arg)
{
	const struct ratio *q = arg;

	return figure(b, op_index(q->den_op), q->den_state);
}

/* A workload in a state, for over_boots(). */
struct op_state {
	int op, st;
};

static double op_state_figure(const struct boot *b, const void *arg)
{
	const struct op_state *os = arg;

	return figure(b, os->op, os->st);
}

/* The median over the boots of a workload's figure; NAN if unmeasured. */
static double op_median(int op, int st)
{
	struct op_state os = { op, st };

	return over_boots(op_state_figure, &os).median;
}

static double mem_of(const struct boot *b, const void *arg)
{
	bool tracked = *(const bool *)arg;

	if (!b->n_mem)
		return NAN;
	return median_of(tracked ? b->mem_tracked : b->mem_untracked, b->n_mem);
}

/*
 * The noise module's furthest round from 1, over every boot: for each
 * round measured in both states, |null / stock - 1|.  The rounds of one
 * boot pair by number (both states ran in every round).
 */
static double noise_bound(int op)
{
	double worst = 0;

	for (int i = 0; i < nr_boots; i++) {
		const struct boot *b = &boots[i];
		int n = b->n[op][ST_NULL] < b->n[op][ST_STOCK] ?
			b->n[op][ST_NULL] : b->n[op][ST_STOCK];

		for (int k = 0; k < n; k++)
			worst = fmax(worst, fabs(b->insns[op][ST_NULL][k] /
						 b->insns[op][ST_STOCK][k] - 1));
	}
	return worst;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

/* Every boot's windows as the guest counted them, undivided. */
static void json_windows(FILE *f)
{
	fprintf(f, "  \"boots_raw\": [\n");
	for (int i = 0; i < nr_boots; i++) {
		const struct boot *b = &boots[i];

		fprintf(f, "    { \"kernel_build\": ");
		if (b->build[0])
			json_string(f, b->build);
		else
			fprintf(f, "null");
		fprintf(f, ",\n      \"windows\": [ \"op state round iterations "
			"insns host_ns\"");
		for (int w = 0; w < b->nr_win; w++)
			fprintf(f, ",\n        \"%s %s %d %d %.0f %.0f\"",
				op_names[b->win[w].op],
				state_names[b->win[w].st], b->win[w].round,
				b->win[w].iters, b->win[w].insns, b->win[w].ns);
		fprintf(f, " ] }%s\n", i + 1 < nr_boots ? "," : "");
	}
	fprintf(f, "  ],\n");
}

static int report(bool gate, const char *json_path, const char *kernel,
		  const char *commit, const char *date)
{
	FILE *json = NULL;
	int missed_targets = 0, failed_gates = 0, wide = 0, shown = 0;
	struct spread mt, mu;
	bool t = true, u = false;

	if (json_path) {
		json = fopen(json_path, "w");
		if (!json)
			fail("%s: %s", json_path, strerror(errno));
		fprintf(json, "{\n  \"kernel\": \"%s\",\n  \"commit\": ",
			kernel ? kernel : "unknown");
		if (commit)
			json_string(json, commit);
		else
			fprintf(json, "null");
		fprintf(json, ",\n  \"date\": ");
		if (date)
			json_string(json, date);
		else
			fprintf(json, "null");
		fprintf(json, ",\n  \"boots\": %d,\n  \"ratios\": {\n",
			nr_boots);
	}
	printf("\n%d boot(s)%s%s\n", nr_boots, kernel ? ", kernel " : "",
	       kernel ? kernel : "");
	for (int i = 0; i < nr_boots; i++)
		printf("  %s: %s\n", boots[i].name,
		       boots[i].settled[0] ? boots[i].settled : "(no settle line)");
	printf("\n%-56s %9s %24s %7s %6s  %s\n", "ratio (instructions)",
	       "den.", "median [min-max]", "spread", "host",
	       "target; gate");
	for (size_t i = 0; i < NR_RATIOS; i++) {
		const struct ratio *q = &ratios[i];
		struct spread s = over_boots(ratio_of, q);
		struct spread d = over_boots(den_figure_of, q);
		struct spread h = over_boots(num_host_of, q);
		char bound[96] = "(shown)";
		double target = INFINITY, limit;
		bool met, passed, spread_ok;

		if (!s.n)
			continue;
		if (q->kind == BOUND_MAX) {
			target = q->target;
			snprintf(bound, sizeof(bound), "<= %.3f", target);
		} else if (q->kind == BOUND_NOISE) {
			double n = noise_bound(op_index(q->num_op));

			target = 1 + n;
			snprintf(bound, sizeof(bound), "<= %.4f (noise +-%.2f %%)",
				 target, 100 * n);
		}
		limit = q->gate ? q->gate : target;
		if (q->gate)
			snprintf(bound + strlen(bound), sizeof(bound) - strlen(bound),
				 "; gate <= %.3f", q->gate);
		met = s.median <= target;
		passed = s.median <= limit;
		spread_ok = nr_boots < 2 || s.rel <= 0.01;
		missed_targets += !met;
		failed_gates += !passed;
		wide += !spread_ok;
		printf("%-56.56s %9.0f %7.4f [%.4f-%.4f] %6.2f%% %6.3f  %s%s%s\n",
		       q->what, d.median, s.median, s.min, s.max, 100 * s.rel,
		       h.median, bound,
		       q->kind == BOUND_NONE ? "" : met ? " met" :
		       passed ? " MISSED (gate passed)" : " MISSED, GATE FAILED",
		       spread_ok ? "" : " SPREAD > 1 %");
		if (json)
			fprintf(json, "%s    \"%s\": { \"what\": \"%s\", "
				"\"median\": %.5f, \"min\": %.5f, \"max\": %.5f, "
				"\"spread\": %.5f, \"denominator_insns\": %.0f, "
				"\"host_time_ratio\": %.4f, \"bound\": \"%s\", "
				"\"target_met\": %s, \"gate_passed\": %s }",
				shown ? ",\n" : "", q->name, q->what, s.median,
				s.min, s.max, s.rel, d.median, h.median, bound,
				q->kind == BOUND_NONE ? "null" : met ? "true" : "false",
				q->kind == BOUND_NONE && spread_ok ? "null" :
				passed && spread_ok ? "true" : "false");
		shown++;
	}
	printf("\n%-30s %14s %14s %14s %14s\n", "instructions per operation",
	       "stock", "null", "nosec", "native");
	for (size_t op = 0; op < OP_NR; op++) {
		printf("%-30s", op_names[op]);
		for (int st = 0; st < ST_NR; st++) {
			double m = op_median(op, st);

			if (!isnan(m))
				printf(" %14.0f", m);
			else
				printf(" %14s", "-");
		}
		printf("\n");
	}
	mt = over_boots(mem_of, &t);
	mu = over_boots(mem_of, &u);
	if (mt.n) {
		printf("\nmodule bytes per tracked task (kmalloc-64): %.1f "
		       "[%.1f-%.1f]; per untracked task: %.1f [%.1f-%.1f]\n",
		       mt.median, mt.min, mt.max, mu.median, mu.min, mu.max);
		/* A slab's own movement is within a byte or two a task. */
		if (mt.median > 64 || mu.median > 2) {
			printf("memory: over its gate (64 bytes a tracked task, "
			       "2 an untracked one)\n");
			failed_gates++;
		}
	}
	if (json) {
		fprintf(json, "\n  },\n  \"memory\": ");
		if (mt.n)
			fprintf(json, "{ \"bytes_per_tracked_task\": %.1f, "
				"\"bytes_per_untracked_task\": %.1f },\n",
				mt.median, mu.median);
		else
			fprintf(json, "null,\n");
		fprintf(json, "  \"insns_per_op\": {\n");
		for (size_t op = 0; op < OP_NR; op++) {
			fprintf(json, "%s    \"%s\": {", op ? ",\n" : "",
				op_names[op]);
			for (int st = 0, first = 1; st < ST_NR; st++) {
				double m = op_median(op, st);

				if (isnan(m))
					continue;
				fprintf(json, "%s \"%s\": %.0f", first ? "" : ",",
					state_names[st], m);
				first = 0;
			}
			fprintf(json, " }");
		}
		fprintf(json, "\n  },\n");
		json_windows(json);
		fprintf(json, "  \"format\": 2\n}\n");
		fclose(json);
	}
	printf("\n%d target(s) missed, %d gate(s) failed, %d spread(s) over 1 %%\n",
	       missed_targets, failed_gates, wide);
	return gate && (failed_gates || wide) ? 1 : 0;
}

/* ---- profile ---- */

struct sym {
	uint64_t addr;
	char *name;
};

static struct sym *syms;
static size_t nr_syms;

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static void read_kallsyms(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t max = 0;

	if (!f)
		fail("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256], mod[256] = "";

		if (sscanf(line, "%llx %c %255s %255s", &addr, &type, name,
			   mod) < 3 || (type != 't' && type != 'T'))
			continue;
		if (nr_syms == max) {
			max = max ? 2 * max : 65536;
			syms = realloc(syms, max * sizeof(*syms));
			if (!syms)
				fail("%s%s", "out of memory", "");
		}
		syms[nr_syms].addr = addr;
		if (asprintf(&syms[nr_syms].name, "%s%s%s", name,
			     mod[0] ? " " : "", mod) < 0)
			fail("%s%s", "out of memory", "");
		nr_syms++;
	}
	fclose(f);
	if (!nr_syms)
		fail("%s: no text symbols (run as root?)%s", path, "");
	qsort(syms, nr_syms, sizeof(*syms), cmp_sym);
}

static const char *symbol_of(uint64_t addr)
{
	size_t lo = 0, hi = nr_syms;

	if (addr < 0xffff800000000000ull)
		return "(user space)";
	if (!nr_syms || addr < syms[0].addr)
		return "(kernel, unknown)";
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/*
	 * The module area (x86-64's MODULES_VADDR) also holds code that
	 * kallsyms does not name: ftrace's trampolines.  A module function
	 * is never 4 KB long.
	 */
	if (addr >= 0xffffffffc0000000ull && addr - syms[lo].addr > 4096)
		return "(module area, unnamed: ftrace trampolines)";
	return syms[lo].name;
}

/* Function families, for the summary of a difference: name prefixes. */
static const struct family {
	const char *name;
	const char *const prefixes[40];
} families[] = {
	{ "scheduling (wake-ups, context switches)",
	  { "__schedule", "schedule", "psi_", "update_load_avg",
	    "__update_load_avg", "update_curr", "update_cfs", "update_rq",
	    "__switch_to", "pick_next", "put_prev", "set_next", "enqueue",
	    "dequeue", "try_to_wake_up", "ttwu_", "wake_up", "__wake_up",
	    "select_task_rq", "check_preempt", "resched", "finish_task_switch",
	    "native_sched_clock", "sched_clock", "rcu_note_context_switch",
	    "process_one_work", "worker_thread", "__queue_work", "queue_work",
	    "insert_work", "kthread", "wait_for_completion", "complete",
	    "reweight", "account_", "__calc_delta", "avg_vruntime", "place_entity",
	    "raw_spin_rq" } },
	{ "nosec_exec's own code", { "nosec_" } },
	{ "ftrace trampolines", { "(module area", "ftrace_trampoline" } },
	{ "allocating and freeing memory",
	  { "kmem_cache_", "__kmem_cache", "kmalloc", "__kmalloc", "kfree",
	    "kzalloc", "slab", "__slab", "___slab", "cmpxchg_double_slab",
	    "put_cpu_partial", "memset", "clear_page", "call_rcu", "rcu_",
	    "__rcu", "get_partial", "cache_from_obj", "memcg", "obj_cgroup",
	    "mod_objcg", "__memcg", "refill_obj" } },
	{ "opening and closing a file",
	  { "dentry_open", "do_dentry_open", "alloc_empty_file", "__alloc_file",
	    "init_file", "file_free", "fput", "__fput", "____fput",
	    "security_file", "apparmor_file", "tomoyo_", "aa_", "path_get",
	    "path_put", "mntput", "mntget", "dput", "file_permission",
	    "inode_permission", "generic_permission", "fsnotify",
	    "__fsnotify", "task_work", "filp_close", "locks_remove",
	    "security_file_free", "lockref", "chrdev_open", "ima_",
	    "integrity_", "get_empty_filp" } },
	{ "credentials",
	  { "prepare_creds", "abort_creds", "commit_creds", "put_cred",
	    "__put_cred", "get_cred", "security_prepare_creds",
	    "security_cred", "cred_", "key_put", "apparmor_cred",
	    "tomoyo_cred", "selinux_cred" } },
	{ "system call entry and exit, the ioctl",
	  { "entry_SYSCALL", "do_syscall", "syscall_", "exit_to_user",
	    "__x64_sys_ioctl", "do_vfs_ioctl", "__fget", "fget", "fdget",
	    "security_file_ioctl", "_copy_from_user", "copy_from_user",
	    "__x64_sys_execveat", "__do_sys", "getname", "putname",
	    "strncpy_from_user", "do_execveat_common", "rseq", "fpregs",
	    "switch_fpu", "restore_fpregs" } },
};
#define NR_FAMILIES	(sizeof(families) / sizeof(families[0]))

static int family_of(const char *name)
{
	for (size_t f = 0; f < NR_FAMILIES; f++)
		for (int i = 0; families[f].prefixes[i]; i++)
			if (!strncmp(name, families[f].prefixes[i],
				     strlen(families[f].prefixes[i])))
				return f;
	if (strstr(name, "[nosec_exec]"))
		return 1;
	return -1;
}

/* The profiled windows (bench.c's ids) and the differences shown. */
#define PROF_WAYS	9
static const char *const prof_ways[PROF_WAYS] = {
	"exec", "exec_nosec", "exec_forced", "fork_exec", "fork_exec_10k",
	"fork_exec_tree", "fork_exec_forced_tree", "shell_tree",
	"shell_forced_tree",
};
static const unsigned int prof_ids[PROF_WAYS] = { 0x03, 0x07, 0x08, 0x02,
						  0x0b, 0x13, 0x14, 0x15,
						  0x16 };

static const struct prof_diff {
	const char *title;
	int more, less;		/* ways */
} prof_diffs[] = {
	{ "nosecurity exec beyond plain exec", 1, 0 },
	{ "forced exec beyond plain exec", 2, 0 },
	{ "fork + exec with 10,000 tracked tasks beyond none", 4, 3 },
	{ "forced tree's fork + exec + exit beyond a plain tree's", 6, 5 },
	{ "forced shell's command beyond a plain shell's", 8, 7 },
};

struct prof_entry {
	const char *name;
	double insns[PROF_WAYS];	/* per operation */
};

static struct prof_entry *prof;
static size_t nr_prof, max_prof;

static struct prof_entry *prof_find(const char *name)
{
	for (size_t i = 0; i < nr_prof; i++)
		if (prof[i].name == name)
			return &prof[i];
	if (nr_prof == max_prof) {
		max_prof = max_prof ? 2 * max_prof : 4096;
		prof = realloc(prof, max_prof * sizeof(*prof));
		if (!prof)
			fail("%s%s", "out of memory", "");
	}
	memset(&prof[nr_prof], 0, sizeof(*prof));
	prof[nr_prof].name = name;
	return &prof[nr_prof++];
}

static const struct prof_diff *sort_by;

static int cmp_prof(const void *a, const void *b)
{
	const struct prof_entry *x = a, *y = b;
	double dx = x->insns[sort_by->more] - x->insns[sort_by->less];
	double dy = y->insns[sort_by->more] - y->insns[sort_by->less];

	return (fabs(dx) < fabs(dy)) - (fabs(dx) > fabs(dy));
}

#define PROF_TOP	30

/* The samples of every profile window, in the order the plugin wrote. */
static struct prof_sample {
	const char *name;
	double insns;
} *samples;
static size_t nr_samples, max_samples, window_start;

static struct prof_window {
	int way;
	double total;
	size_t first, last;	/* its samples */
} *windows;
static size_t nr_windows, max_windows;
static int windows_of_way[PROF_WAYS];

static void *grow(void *p, size_t *max, size_t size)
{
	*max = *max ? 2 * *max : 4096;
	p = realloc(p, *max * size);
	if (!p)
		fail("%s%s", "out of memory", "");
	return p;
}

static void prof_sample_add(const char *name, double n)
{
	if (nr_samples == max_samples)
		samples = grow(samples, &max_samples, sizeof(*samples));
	samples[nr_samples++] = (struct prof_sample){ name, n };
}

static void prof_window_end(unsigned int id)
{
	struct prof_window win = { -1, 0, window_start, nr_samples };

	for (int w = 0; w < PROF_WAYS; w++)
		if (id == prof_ids[w])
			win.way = w;
	for (size_t j = win.first; j < win.last; j++)
		win.total += samples[j].insns;
	window_start = nr_samples;
	if (win.way < 0)
		return;
	windows_of_way[win.way]++;
	if (nr_windows == max_windows)
		windows = grow(windows, &max_windows, sizeof(*windows));
	windows[nr_windows++] = win;
}

/*
 * What the differences come from: per operation, each way's total and
 * the instructions of every function that spent at least one in a way.
 */
static void profile_raw(const char *path, const double *total,
			const double *ops)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fail("%s: %s", path, strerror(errno));
	fprintf(f, "# instructions per operation, by function and way (bench/report --profile)\n");
	fprintf(f, "%-48s", "function");
	for (int w = 0; w < PROF_WAYS; w++)
		fprintf(f, " %s", prof_ways[w]);
	fprintf(f, "\n%-48s", "(operations kept)");
	for (int w = 0; w < PROF_WAYS; w++)
		fprintf(f, " %.0f", ops[w]);
	fprintf(f, "\n%-48s", "(total)");
	for (int w = 0; w < PROF_WAYS; w++)
		fprintf(f, " %.0f", total[w]);
	fprintf(f, "\n");
	for (size_t i = 0; i < nr_prof; i++) {
		bool any = false;

		for (int w = 0; w < PROF_WAYS; w++)
			any |= prof[i].insns[w] >= 1;
		if (!any)
			continue;
		fprintf(f, "%-48s", prof[i].name);
		for (int w = 0; w < PROF_WAYS; w++)
			fprintf(f, " %.1f", prof[i].insns[w]);
		fprintf(f, "\n");
	}
	fclose(f);
}

static int profile(const char *prefix, const char *kallsyms, const char *raw)
{
	FILE *ic = open_part(prefix, ".icount");
	FILE *log = open_part(prefix, ".log");
	double ops[PROF_WAYS] = { 0 }, total[PROF_WAYS] = { 0 };
	char line[512];

	read_kallsyms(kallsyms);
	/* Every label of a profiled way says how many operations it held. */
	while (fgets(line, sizeof(line), log)) {
		char op[64];
		int iters;

		if (sscanf(line, "BENCH-W %*x %63s %*s %*d %d", op, &iters) != 2)
			continue;
		for (int w = 0; w < PROF_WAYS; w++)
			if (!strcmp(op, prof_ways[w]))
				ops[w] += iters;
	}
	/*
	 * The plugin dumps each profile window on its own, ending with
	 * "P ID end".  A window can catch work of the kernel's own (a lazy
	 * purge of freed vmalloc areas, say): only the windows within 2 %
	 * of their way's smallest count are kept.
	 */
	while (fgets(line, sizeof(line), ic)) {
		unsigned int id;
		unsigned long long addr, n;

		if (sscanf(line, "P %u %llx %llu", &id, &addr, &n) == 3) {
			prof_sample_add(symbol_of(addr), n);
			continue;
		}
		if (sscanf(line, "P %u end", &id) == 1)
			prof_window_end(id);
	}
	for (int w = 0; w < PROF_WAYS; w++) {
		double least = INFINITY;
		int kept = 0;

		for (size_t i = 0; i < nr_windows; i++)
			if (windows[i].way == w)
				least = fmin(least, windows[i].total);
		for (size_t i = 0; i < nr_windows; i++) {
			if (windows[i].way != w || windows[i].total > 1.02 * least)
				continue;
			kept++;
			total[w] += windows[i].total;
			for (size_t j = windows[i].first; j < windows[i].last; j++)
				prof_find(samples[j].name)->insns[w] +=
					samples[j].insns;
		}
		/* Per operation: the kept windows' share of the labels. */
		ops[w] = windows_of_way[w] ? ops[w] * kept / windows_of_way[w] : 0;
	}
	for (int w = 0; w < PROF_WAYS; w++) {
		if (!ops[w])
			fail("%s: no %s windows", prefix, prof_ways[w]);
		total[w] /= ops[w];
	}
	for (size_t i = 0; i < nr_prof; i++)
		for (int w = 0; w < PROF_WAYS; w++)
			prof[i].insns[w] /= ops[w];
	if (raw)
		profile_raw(raw, total, ops);
	printf("Instructions per operation, by function: where each costs more\n"
	       "than its baseline (the profile windows, each a little wider than\n"
	       "its counted window: it also holds that window's markers).\n");
	for (size_t d = 0; d < sizeof(prof_diffs) / sizeof(prof_diffs[0]); d++) {
		const struct prof_diff *pd = &prof_diffs[d];

		sort_by = pd;
		qsort(prof, nr_prof, sizeof(*prof), cmp_prof);
		printf("\n%s: %.0f - %.0f = %+.0f\n", pd->title,
		       total[pd->more], total[pd->less],
		       total[pd->more] - total[pd->less]);
		{
			double fam[NR_FAMILIES + 1] = { 0 };

			for (size_t i = 0; i < nr_prof; i++) {
				int f = family_of(prof[i].name);

				fam[f < 0 ? NR_FAMILIES : (size_t)f] +=
					prof[i].insns[pd->more] -
					prof[i].insns[pd->less];
			}
			printf("  by family of functions (by name: approximate):\n");
			for (size_t f = 0; f <= NR_FAMILIES; f++)
				printf("    %-64s %+8.0f\n",
				       f < NR_FAMILIES ? families[f].name : "the rest",
				       fam[f]);
		}
		printf("  %-48s %10s %10s %10s\n", "function", prof_ways[pd->more],
		       prof_ways[pd->less], "difference");
		for (size_t i = 0; i < nr_prof && i < PROF_TOP; i++) {
			const struct prof_entry *p = &prof[i];

			printf("  %-48.48s %10.0f %10.0f %+10.0f\n", p->name,
			       p->insns[pd->more], p->insns[pd->less],
			       p->insns[pd->more] - p->insns[pd->less]);
		}
	}
	fclose(ic);
	fclose(log);
	return 0;
}

int main(int argc, char **argv)
{
	const char *json = NULL, *kernel = NULL, *commit = NULL, *date = NULL;
	bool gate = false;
	int i = 1;

	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "--profile"))
		return profile(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--gate"))
			gate = true;
		else if (!strcmp(argv[i], "--json") && i + 1 < argc)
			json = argv[++i];
		else if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			kernel = argv[++i];
		else if (!strcmp(argv[i], "--commit") && i + 1 < argc)
			commit = argv[++i];
		else if (!strcmp(argv[i], "--date") && i + 1 < argc)
			date = argv[++i];
		else
			break;
	}
	if (i == argc || argv[i][0] == '-' || argc - i > MAX_BOOTS) {
		fprintf(stderr, "usage: report [--gate] [--json FILE] [--kernel NAME] "
			"[--commit REV] [--date DATE] BOOT...\n"
			"       report --profile BOOT KALLSYMS [RAW]\n");
		return 2;
	}
	for (; i < argc; i++)
		read_boot(argv[i]);
	return report(gate, json, kernel, commit, date);
}
