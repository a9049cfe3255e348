/* modops.h - kernel module operations shared by staprun and stapio. */
#ifndef STP_MODOPS_H
#define STP_MODOPS_H

#include <stddef.h>

/* MODULE_NAME_LEN - 8 on 64-bit kernels: the longest module name + NUL. */
#define STP_MODULE_NAME_MAX 55

/* mod_name_of - the kernel's name for the module file @path: its base
 * name without ".ko", '-' turned into '_'.  malloc'd; NULL if out of
 * memory. */
char *mod_name_of(const char *path);

/* mod_name_of_image - the module's own name, from the "name=" entry of
 * the .modinfo section of the ELF64 image @img (@len bytes).  malloc'd;
 * NULL when there is none. */
char *mod_name_of_image(const void *img, size_t len);

/* mod_modinfo - the value of "@key=" in the .modinfo section of the ELF64
 * image @img (@len bytes), malloc'd; NULL when there is none. */
char *mod_modinfo(const void *img, size_t len, const char *key);

/* mod_kernel_build_id - the build-id of the running kernel, as lower-case
 * hex, from its ELF notes (/sys/kernel/notes) into @hex (@max bytes, at
 * least 2 * 64 + 1).  Returns 0, or -1 when the notes cannot be read or
 * hold no GNU build-id. */
int mod_kernel_build_id(char *hex, size_t max);

/* mod_read_fd - like mod_read, from the open descriptor @fd. */
void *mod_read_fd(int fd, size_t *len);

/* mod_insert_fd - insert the module open at @fd (finit_module) with
 * @params.  Returns 0 or -errno. */
int mod_insert_fd(int fd, const char *params);

/* mod_read - read the whole file @path into a malloc'd buffer, its size in
 * *@len.  Returns NULL and sets errno on failure. */
void *mod_read(const char *path, size_t *len);

/* mod_rename - patch the module image @img (@len bytes, ELF64) so that
 * the kernel calls it @newname: the name in its .gnu.linkonce.this_module
 * section (struct module's name) is replaced, where @oldname is found.
 * @newname must be at most STP_MODULE_NAME_MAX characters.  The runtime
 * names its debugfs directory after THIS_MODULE->name, so it follows.
 * Returns 0 or -errno (-ENOEXEC: not an ELF64 module or @oldname not in
 * the section; -ENAMETOOLONG). */
int mod_rename(void *img, size_t len, const char *oldname, const char *newname);

/* mod_insert_file - insert the module file @path with the parameter
 * string @params (finit_module, falling back to init_module).
 * Returns 0 or -errno. */
int mod_insert_file(const char *path, const char *params);

/* mod_insert_image - insert the module image @img of @len bytes
 * (init_module).  Returns 0 or -errno. */
int mod_insert_image(const void *img, size_t len, const char *params);

/* mod_remove - remove the module @name, retrying for up to @wait_ms while
 * it is busy (its debugfs files still closing).  Returns 0, -ENOENT when
 * it was not loaded, or another -errno. */
int mod_remove(const char *name, int wait_ms);

/* mod_is_loaded - 1 if /proc/modules lists @name, else 0. */
int mod_is_loaded(const char *name);

#endif
