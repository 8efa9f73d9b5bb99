/* teach_impl.h - what the files of src/teach/ share: the table of
 * exercises (teach.c), their embedded texts (teach_data.c, generated from
 * src/teach/ex/ by src/teach/embed.sh) and the grader (teach_check.c). */
#ifndef TRITSIM_TEACH_IMPL_H
#define TRITSIM_TEACH_IMPL_H

#include <stdbool.h>
#include <stdio.h>

#include "teach.h"

/* One embedded file of src/teach/ex/: "copy.tk", "copy.check.tk",
 * "copy.hints". */
typedef struct teach_file {
    const char *name;
    const char *text;
} teach_file;

extern const teach_file teach_files[];   /* up to an entry whose name is NULL */

/* The text of embedded file name, or NULL. */
const char *teach_file_text(const char *name);

/* One exercise. */
typedef struct teach_exercise {
    const char *name;       /* "copy": its files are NAME.tk, NAME.check.tk,
                               NAME.hints */
    const char *title;      /* one line for `tritsim exercises` */
} teach_exercise;

/* The exercise called name, or NULL. */
const teach_exercise *teach_find(const char *name);

/* Grade path (exercise e's starting file, filled in) on the CPU:
 * the learner's file runs under the name "__check__", then the grader
 * NAME.check.tk in its globals; what went wrong is explained on out.
 * 0 when every case passed, 1 when one failed. */
int teach_grade(const teach_exercise *e, const char *path, teach_modules_fn init, FILE *out);

#endif
