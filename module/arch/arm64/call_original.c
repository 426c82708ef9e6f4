// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - arm64's way into a hooked function (module/arch.h): a BLR
 * to its first instruction, whose landing pad the branch guard checked
 * where the kernel has BTI.  The return address stays the one the BLR
 * made, in the module's text, and the function signs it as any caller's
 * (PAC): the hook's dispatcher sees the module's call and lets it through.
 */
#include <linux/compiler.h>
#include <linux/compiler_types.h>

#include "../../arch.h"

typedef unsigned long (*nosec_original_fn)(unsigned long, unsigned long,
					   unsigned long, unsigned long,
					   unsigned long);

/**
 * nosec_call_original() - call a hooked kernel function from its replacement
 * @a0: its first argument
 * @a1: its second
 * @a2: its third
 * @a3: its fourth
 * @a4: its fifth
 * @fn: its first instruction, where the module enters it
 *
 * A Clang kernel with CFI would check the call's type, which no hooked
 * function has (__nocfi); the branch guard checks its target instead.
 *
 * Return: what @fn returns, in a register's width.
 */
notrace __nocfi unsigned long
nosec_call_original(unsigned long a0, unsigned long a1, unsigned long a2,
		    unsigned long a3, unsigned long a4, unsigned long fn)
{
	nosec_original_fn original = (nosec_original_fn)fn;

	/* A call, not a tail call (Kbuild: -fno-optimize-sibling-calls). */
	return original(a0, a1, a2, a3, a4);
}
