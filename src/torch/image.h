/* image.h - reading and writing PNG and JPEG files as planar uint8 images,
 * the C side of torchvision.io.read_image / decode_image / write_png /
 * write_jpeg.  Decoding and encoding are done by libpng and libjpeg(-turbo);
 * this module only chooses their conversions and moves pixels between their
 * interleaved rows and the CHW layout torchvision returns.
 *
 * No global state: every call owns its own codec objects, so different
 * threads may read and write images at the same time.  Errors never print;
 * they come back as a message in the caller's buffer, for example
 *
 *     cannot read 'puppy.jpg': truncated JPEG data
 */
#ifndef TRITSIM_IMAGE_H
#define TRITSIM_IMAGE_H

#include <stddef.h>

/* An image as torchvision returns it: a (channels, height, width) uint8
 * tensor, stored plane after plane (all of channel 0, then channel 1, ...).
 * Channels: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.  An image filled in by
 * image_read/image_decode/image_alloc owns data; free it with image_free. */
typedef struct image {
    int channels;
    int height;
    int width;
    unsigned char *data;    /* channels * height * width bytes */
} image;

/* The value of channel c at row y, column x. */
static inline unsigned char image_at(const image *img, int c, int y, int x)
{
    return img->data[((size_t)c * (size_t)img->height + (size_t)y)
                     * (size_t)img->width + (size_t)x];
}

/* torchvision.io.ImageReadMode, with the same numbering.
 *   UNCHANGED   the file's own channels (a palette is expanded to RGB, or RGBA
 *               when it has transparency; a gray+alpha PNG gives 2 channels)
 *   GRAY        1 channel; colour is converted with the ITU-R 601-2 luma
 *               weights (0.299 R + 0.587 G + 0.114 B) by the codec library,
 *               as torchvision does; alpha is dropped
 *   GRAY_ALPHA  2 channels (alpha 255 where the file has none)
 *   RGB         3 channels; gray is replicated; alpha is dropped
 *   RGB_ALPHA   4 channels (alpha 255 where the file has none)
 * 16-bit PNG samples are reduced to their high byte, low bit depths are
 * scaled up to 8 bits, so every result is uint8. */
typedef enum image_mode {
    IMAGE_UNCHANGED = 0,
    IMAGE_GRAY = 1,
    IMAGE_GRAY_ALPHA = 2,
    IMAGE_RGB = 3,
    IMAGE_RGB_ALPHA = 4
} image_mode;

/* Largest image this module will allocate, in bytes of pixel data, so a
 * corrupt header cannot ask for terabytes. */
#define IMAGE_MAX_BYTES ((size_t)1 << 30)

/* Reads a PNG or JPEG file (told apart by its first bytes, not by its name)
 * into *img, converted to mode.  Returns 0, or -1 with *img left empty and a
 * message naming the file in errbuf ("cannot read 'x.png': ...").  errbuf
 * may be NULL when errlen is 0. */
int image_read(const char *path, image_mode mode, image *img,
               char *errbuf, size_t errlen);

/* The same from bytes already in memory (torchvision.io.decode_image);
 * name is only used in messages. */
int image_decode(const unsigned char *bytes, size_t len, const char *name,
                 image_mode mode, image *img, char *errbuf, size_t errlen);

/* Writes img (1 to 4 channels) as an 8-bit PNG.  On failure returns -1 with
 * a message ("cannot write 'x.png': ...") and removes the partial file if
 * it is a regular file (never a device such as /dev/stdout). */
int image_write_png(const char *path, const image *img,
                    char *errbuf, size_t errlen);

/* Writes img (1 or 3 channels) as a baseline JPEG; quality is 1..100 as in
 * torchvision.io.write_jpeg (its default is 75).  Failures as for PNG. */
int image_write_jpeg(const char *path, const image *img, int quality,
                     char *errbuf, size_t errlen);

/* Makes *img a zero-filled image of the given shape.  Returns 0, or -1 with
 * a message when the shape is invalid or too large. */
int image_alloc(image *img, int channels, int height, int width,
                char *errbuf, size_t errlen);

/* Frees img's pixels and empties it; safe on an empty or freed image. */
void image_free(image *img);

#endif
