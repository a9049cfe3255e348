/* vma_iterator - an mm's mappings are walked with VMA_ITERATOR and
 * for_each_vma() (the maple tree, 6.1; before it, mm->mmap's list).
 */
#include <linux/mm.h>

static unsigned long stp_kcap_vma_iterator(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	unsigned long n = 0;
	VMA_ITERATOR(vmi, mm, 0);

	for_each_vma(vmi, vma)
		n += vma->vm_end - vma->vm_start;
	return n;
}
