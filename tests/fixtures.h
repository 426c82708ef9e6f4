/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NOSEC_FIXTURES_H
#define NOSEC_FIXTURES_H

#include <sys/types.h>

#define FIX			"/tmp/fix"
#define FIX_PROBE		FIX "/probe"
#define FIX_PROBE_SUID		FIX "/probe-suid"	/* setuid root */
#define FIX_PROBE_SGID		FIX "/probe-sgid"	/* setgid root */
#define FIX_PROBE_CAPS		FIX "/probe-caps"	/* cap_net_raw+ep */
#define FIX_PROBE_XONLY		FIX "/probe-xonly"	/* mode 0711 */
#ifndef NOSEC_KSELFTEST	/* the LSM cases (lsm_*_test.c, tomoyo_test.c) */
#define FIX_PROBE_AA		FIX "/probe-aa"		/* AppArmor profile */
#define FIX_PROBE_AA_DENIED	FIX "/probe-aa-denied"	/* nosecdeny: deny x */
#define FIX_PROBE_AA_XONLY	FIX "/probe-aa-xonly"	/* nosecxonly: ix, no r */
#define FIX_PROBE_AA_PXM	FIX "/probe-aa-pxm"	/* nosecpx: Px, r and m */
#define FIX_PROBE_AA_PXNOM	FIX "/probe-aa-pxnom"	/* nosecpx: Px, r, no m */
#define FIX_PROBE_AA_CX		FIX "/probe-aa-cx"	/* nosecpx: Cx */
#define FIX_PROBE_AA_IXNOM	FIX "/probe-aa-ixnom"	/* nosecpx: ix, r, no m */
#define FIX_PROBE_AA_PXSELF	FIX "/probe-aa-pxself"	/* nosecpx: Px -> nosecpx */
#define FIX_PROBE_TOMOYO	FIX "/probe-tomoyo"	/* a TOMOYO domain of its own */
#define FIX_PROBE_TOMOYO_NOREAD	FIX "/probe-tomoyo-noread" /* TOMOYO: no read */
/* TOMOYO's activation: qemu/run boots with TOMOYO_trigger= and _loader=. */
#define FIX_TOMOYO_TRIGGER	FIX "/tomoyo-trigger"
#define FIX_TOMOYO_LOADER	FIX "/tomoyo-loader"
#endif
#define FIX_PROBE_NOEXEC_BIT	FIX "/probe-noexec-bit"	/* mode 0644 */
#define FIX_INTERP_XONLY	FIX "/interp-xonly"	/* mode 0711 */
#define FIX_SCRIPT		FIX "/script"		/* #!probe */
#define FIX_SCRIPT_XINTERP	FIX "/script-xinterp"	/* #!interp-xonly */
#define FIX_SCRIPT_XONLY	FIX "/script-xonly"	/* #!probe, 0711 */
#define FIX_GARBAGE		FIX "/garbage"		/* ENOEXEC */
#define FIX_DYNPROBE		FIX "/dynprobe"		/* PT_INTERP ld.so */
#define FIX_DYNPROBE_XINTERP	FIX "/dynprobe-xinterp"	/* PT_INTERP 0711 */
#define FIX_LD_XONLY		FIX "/ld-xonly.so"	/* ld.so, 0711 */
#define FIX_LOOP		FIX "/loop"		/* symlink to itself */
#define FIX_NOEXEC_DIR		FIX "/noexec"		/* noexec tmpfs */
/*
 * Shebang chains: FIX "/chain<n>-1" runs chain<n>-2 ... chain<n>-<n>,
 * which runs probe.  The kernel allows 5 rewrites.  In chainx3 the
 * second script is execute-only.
 */
#define FIX_CHAIN5		FIX "/chain5-1"
#define FIX_CHAIN6		FIX "/chain6-1"		/* one too deep */
#define FIX_CHAINX3		FIX "/chainx3-1"
/* binfmt_misc: files by extension, registered by the bypass cases. */
#define FIX_MISC_PLAIN		FIX "/prog.nosecx"	/* interp probe-suid */
#define FIX_MISC_CREDS		FIX "/prog.nosecc"	/* C flag, setuid root */
#define FIX_MISC_XINTERP	FIX "/prog.nosecxi"	/* interp exec-only */
#ifdef NOSEC_KSELFTEST
/* The 32-bit program, where one was built beside the tests. */
#define FIX_PROG32		FIX "/prog32"
#endif

int make_fixture_files(const char *tests_dir);
#ifndef NOSEC_KSELFTEST
int load_apparmor_profile(void);
#endif
int copy_file(const char *from, const char *to, mode_t mode);
int write_file(const char *path, const char *text, mode_t mode);

#endif
