/* kbench - load: walking popt option tables (load's pass-through rows and
 * the backends' own), the layer under options.c and optargs.c
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row counts when it is a string (given when its char * is not NULL) or
 * a flag (given when its int is not 0) with a long name; a row that
 * includes a table (POPT_ARG_INCLUDE_TABLE) is walked into, in order.
 */
#ifndef KBENCH_LOAD_OPTROWS_H
#define KBENCH_LOAD_OPTROWS_H

#include <popt.h>
#include <stddef.h>

typedef void (*optrows_fn)(const struct poptOption *row, void *data);

/* fn(row, data) on every string or flag row of rows (ended by a row with
 * no name and no arg), included tables' too, in order. */
void optrows_walk(const struct poptOption *rows, optrows_fn fn, void *data);

/* 1 when the string or flag row r was given on the command line, else 0. */
int optrows_given(const struct poptOption *r);

/* The first row of rows (and of the tables they include) that was given,
 * or NULL when none was. */
const struct poptOption *optrows_first_given(const struct poptOption *rows);

/* "--NAME" of each row walked, in order, into names[0 .. max-1] (rows past
 * max are counted, not written). */
void optrows_names(const struct poptOption *rows, char (*names)[40], size_t max);

/* 1 when r is a backend's secret option (struct backend's secret, the
 * long option that holds a password), else 0. */
int optrows_secret(const struct poptOption *r);

/* Overwrite the password in argv's value of every backend's secret
 * option, so that it leaves the process title (the strings must be
 * writable: the process's own argv). */
void optrows_hide_secrets(int argc, const char **argv);

#endif
