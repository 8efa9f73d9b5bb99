/* pyplotmod.h - matplotlib.pyplot for .tk programs: the calls the
 * lecture's show_img makes (figure, axis, imshow, show), which check their
 * arguments and draw nothing (pyplotmod.c). */
#ifndef TRITSIM_PYPLOTMOD_H
#define TRITSIM_PYPLOTMOD_H

#include "host.h"

/* Register matplotlib and matplotlib.pyplot with h. */
void pyplot_init(host *h);

#endif
