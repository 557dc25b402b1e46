import { Box, type BoxProps } from '@chakra-ui/react';

/**
 * Long-form text (legal pages, articles, guides): readable measure and spacing for the plain h2/h3/p/ul/ol/
 * table/code/blockquote elements inside, so content components stay plain markup.
 */
export function Prose(props: BoxProps) {
  return (
    <Box
      maxW="70ch"
      color="fg"
      lineHeight="1.75"
      css={{
        '& > * + *': { marginTop: '4' },
        '& h2': { fontSize: '2xl', fontWeight: 'semibold', lineHeight: '1.3', marginTop: '10', scrollMarginTop: '20' },
        '& h3': { fontSize: 'lg', fontWeight: 'semibold', lineHeight: '1.4', marginTop: '6' },
        '& p, & li': { color: 'fg.muted' },
        '& strong': { color: 'fg', fontWeight: 'semibold' },
        '& ul': { listStyleType: 'disc', paddingInlineStart: '6' },
        '& ol': { listStyleType: 'decimal', paddingInlineStart: '6' },
        '& li + li': { marginTop: '1.5' },
        '& a': { color: 'brand.fg', textDecoration: 'underline', textUnderlineOffset: '2px' },
        '& code': { fontFamily: 'mono', fontSize: '0.875em', bg: 'bg.muted', paddingInline: '1', borderRadius: 'sm' },
        '& pre': { fontFamily: 'mono', fontSize: 'sm', bg: 'bg.muted', padding: '4', borderRadius: 'md', overflowX: 'auto', lineHeight: '1.6' },
        '& pre code': { bg: 'transparent', padding: '0' },
        '& blockquote': { borderInlineStartWidth: '3px', borderColor: 'brand.solid', paddingInlineStart: '4', fontStyle: 'italic' },
        '& table': { width: 'full', fontSize: 'sm', borderCollapse: 'collapse' },
        '& th, & td': { borderBottomWidth: '1px', paddingBlock: '2', paddingInline: '3', textAlign: 'start', verticalAlign: 'top' },
      }}
      {...props}
    />
  );
}
