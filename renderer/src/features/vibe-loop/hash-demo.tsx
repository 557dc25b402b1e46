import { Badge, Box, Button, Card, Field, HStack, Icon, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { Check, RefreshCw, RotateCcw, Save } from 'lucide-react';
import { useState } from 'react';
import { contentHash, formatHash, normalizeContent } from './fnv1a';

export const DEMO_TEXT = `Acme Invoices

Pricing
Starter: $9 per month
Team: $29 per month

Sign in to see your invoices.`;

/**
 * The live demo: edit the "page", see its FNV-1a hash change, and whether the script would report it. The stored
 * hash stands for the one the script keeps in localStorage; "Store this hash" is what a report does.
 */
export function HashDemo() {
  const [text, setText] = useState(DEMO_TEXT);
  const [stored, setStored] = useState(() => contentHash(DEMO_TEXT));
  const current = contentHash(text);
  const changed = current !== stored;
  const normalized = normalizeContent(text);

  return (
    <Card.Root variant="outline" overflow="hidden">
      <SimpleGrid columns={{ base: 1, md: 2 }}>
        <Box p={{ base: '4', md: '6' }} borderBottomWidth={{ base: '1px', md: '0' }} borderEndWidth={{ base: '0', md: '1px' }}>
          <Field.Root>
            <Field.Label fontWeight="semibold">Page content</Field.Label>
            <Textarea
              value={text}
              onChange={(event) => setText(event.target.value)}
              rows={9}
              fontFamily="mono"
              fontSize="sm"
              spellCheck={false}
              resize="vertical"
              data-testid="demo-input"
            />
            <Field.HelperText>
              Edit the text as if you changed the page. Extra spaces and line breaks do not count: the script hashes the whitespace-normalised text.
            </Field.HelperText>
          </Field.Root>
        </Box>
        <Stack p={{ base: '4', md: '6' }} gap="4" bg="bg.subtle">
          <Box>
            <Text fontSize="sm" fontWeight="semibold" color="fg.muted">
              Current hash (FNV-1a, 32-bit)
            </Text>
            <Text fontFamily="mono" fontSize={{ base: '2xl', md: '3xl' }} fontWeight="semibold" color="brand.fg" data-testid="live-hash">
              {formatHash(current)}
            </Text>
          </Box>
          <Box>
            <Text fontSize="sm" fontWeight="semibold" color="fg.muted">
              Stored hash (localStorage)
            </Text>
            <Text fontFamily="mono" fontSize="lg" data-testid="stored-hash">
              {formatHash(stored)}
            </Text>
          </Box>
          <Box aria-live="polite" data-testid="demo-status" data-changed={changed}>
            {changed ? (
              <Stack gap="1.5">
                <Badge colorPalette="orange" variant="surface" size="lg" alignSelf="start" gap="1.5">
                  <Icon boxSize="4" aria-hidden="true">
                    <RefreshCw />
                  </Icon>
                  Changed
                </Badge>
                <Text fontSize="sm" color="fg.muted">
                  The script would send the new hash and the hostname to <code>POST /continuous-testing</code>, and vibeeval would re-scan the site and notify you.
                </Text>
              </Stack>
            ) : (
              <Stack gap="1.5">
                <Badge colorPalette="green" variant="surface" size="lg" alignSelf="start" gap="1.5">
                  <Icon boxSize="4" aria-hidden="true">
                    <Check />
                  </Icon>
                  Unchanged
                </Badge>
                <Text fontSize="sm" color="fg.muted">
                  The hash matches the stored one: nothing is sent (unless the stored hash is older than a day).
                </Text>
              </Stack>
            )}
          </Box>
          <HStack gap="2" wrap="wrap" mt="auto">
            <Button size="sm" colorPalette="brand" onClick={() => setStored(current)} disabled={!changed}>
              <Save aria-hidden /> Store this hash
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setText(DEMO_TEXT);
                setStored(contentHash(DEMO_TEXT));
              }}
            >
              <RotateCcw aria-hidden /> Reset demo
            </Button>
          </HStack>
          <Text fontSize="xs" color="fg.muted" data-testid="normalized-length">
            {normalized.length} characters after normalisation
          </Text>
        </Stack>
      </SimpleGrid>
    </Card.Root>
  );
}
