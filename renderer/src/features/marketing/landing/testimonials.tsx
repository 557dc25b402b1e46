import { Box, Container, Flex, Heading, Icon, SimpleGrid, Stack, Text, chakra } from '@chakra-ui/react';
import { Quote } from 'lucide-react';

interface Testimonial {
  quote: string;
  name: string;
  role: string;
  company: string;
}

const TESTIMONIALS: Testimonial[] = [
  {
    quote:
      'The first scan showed our orders table answering the anon key: names, addresses, everything. Two row-level security policies later the finding was gone. We had launched on Product Hunt the week before.',
    name: 'Priya Nair',
    role: 'Co-founder',
    company: 'Two-person e-commerce startup built with Lovable',
  },
  {
    quote: 'A Bolt prototype had put our Stripe secret key in a lazily loaded chunk. vibeeval pointed at the file and the offset, and I rotated the key that afternoon.',
    name: 'Marco Deluca',
    role: 'Indie developer',
    company: 'Booking SaaS for fitness coaches',
  },
  {
    quote:
      'The CLI runs on every pull request and the SARIF goes straight into code scanning. Last month it stopped a deploy that would have shipped our source maps and an .env file.',
    name: 'Hannah Kowalski',
    role: 'Engineering lead',
    company: 'B2B software agency',
  },
  {
    quote: 'I hand clients the PDF report with every project. Taking their header grade from D to A and showing the evidence behind each fix makes the security conversation easy.',
    name: 'Tomás Rivera',
    role: 'Freelance web developer',
    company: 'One-person studio shipping with Cursor',
  },
];

const initials = (name: string) =>
  name
    .split(' ')
    .map((part) => part[0])
    .join('');

/** Short quotes from people who found real holes in their AI-built apps. */
export function Testimonials() {
  return (
    <Box as="section" aria-labelledby="testimonials-title" py={{ base: '16', md: '24' }}>
      <Container maxW="6xl" px={{ base: '4', md: '6' }}>
        <Stack gap="3" textAlign="center" mb={{ base: '10', md: '14' }} maxW="2xl" mx="auto">
          <Text color="brand.fg" fontWeight="semibold" fontSize="sm" textTransform="uppercase" letterSpacing="wider">
            From builders who scanned
          </Text>
          <Heading as="h2" id="testimonials-title" size={{ base: '2xl', md: '3xl' }} letterSpacing="tight" textWrap="balance">
            Holes found before anyone else found them
          </Heading>
        </Stack>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap={{ base: '5', md: '6' }}>
          {TESTIMONIALS.map((item) => (
            <chakra.figure
              key={item.name}
              display="flex"
              flexDirection="column"
              justifyContent="space-between"
              gap="6"
              m="0"
              p={{ base: '6', md: '8' }}
              bg="bg.panel"
              borderWidth="1px"
              borderRadius="l3"
              boxShadow="xs"
            >
              <Stack gap="4">
                <Icon boxSize="7" color="brand.solid" opacity="0.6" aria-hidden="true">
                  <Quote />
                </Icon>
                <chakra.blockquote fontSize={{ base: 'md', md: 'lg' }} lineHeight="1.7" color="fg">
                  {item.quote}
                </chakra.blockquote>
              </Stack>
              <Flex as="figcaption" align="center" gap="3">
                <Flex
                  w="10"
                  h="10"
                  flexShrink="0"
                  align="center"
                  justify="center"
                  borderRadius="full"
                  bg="brand.subtle"
                  color="brand.fg"
                  fontWeight="semibold"
                  fontSize="sm"
                  aria-hidden="true"
                >
                  {initials(item.name)}
                </Flex>
                <Box>
                  <Text fontWeight="semibold">{item.name}</Text>
                  <Text fontSize="sm" color="fg.muted">
                    {item.role} · {item.company}
                  </Text>
                </Box>
              </Flex>
            </chakra.figure>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
