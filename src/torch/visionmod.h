/* visionmod.h - the torchvision module of .tk programs: torchvision.io's
 * image files as uint8 tensors (read_image, decode_image, read_file,
 * write_png, write_jpeg, ImageReadMode), and
 * torchvision.transforms.functional.resize (visiontransforms.c). */
#ifndef TRITSIM_VISIONMOD_H
#define TRITSIM_VISIONMOD_H

#include "host.h"

/* Register torchvision and torchvision.io with h. */
void vision_init(host *h);

/* Register torchvision.transforms and torchvision.transforms.functional
 * with h, and make them attributes of tv (vision_init calls it). */
void vision_transforms_add(host *h, val tv);

#endif
