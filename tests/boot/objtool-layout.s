	.section .text.small,"ax",@progbits
	.globl small
	.type small,@function
small:
	endbr64
	ret
	.size small, .-small
	.section .text.other,"ax",@progbits
	.globl other
	.type other,@function
other:
	endbr64
	nop
	nop
	nop
	nop
	ret
	.size other, .-other
	.globl nosize
nosize:
	ret
	.section .text.reader,"ax",@progbits
	.globl reader
	.type reader,@function
reader:
	endbr64
	movq small+0x10(%rip), %rax
	movq other+0x5(%rip), %rax
	movq .Linside+1(%rip), %rax
	movq nosize+8(%rip), %rax
	movq small-8(%rip), %rax
	ret
	.size reader, .-reader
	.section .text.other
.Linside:
	nop
