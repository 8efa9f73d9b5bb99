/* visionmod.h - the torchvision module of .tk programs: torchvision.io's
 * image files as uint8 tensors (read_image, decode_image, read_file,
 * write_png, write_jpeg, ImageReadMode). */
#ifndef TRITSIM_VISIONMOD_H
#define TRITSIM_VISIONMOD_H

#include "host.h"

/* Register torchvision and torchvision.io with h. */
void vision_init(host *h);

#endif
