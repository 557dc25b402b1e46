import { Box } from '@chakra-ui/react';
import { useDocumentTitle } from '../../ui/use-document-title';
import { CookieBanner } from './landing/cookie-banner';
import { FeatureCarousel } from './landing/feature-carousel';
import { Hero } from './landing/hero';
import { MemberBadge } from './landing/member-badge';
import { PricingSection } from './landing/pricing-section';
import { SiteFooter } from './landing/site-footer';
import { Testimonials } from './landing/testimonials';
import { ToolLogos } from './landing/tool-logos';

/** / : the hero with the URL test, the tools we scan, what we find, pricing, what users say, and the footer. */
export function LandingPage() {
  useDocumentTitle();
  return (
    <Box overflowX="clip">
      <Hero />
      <ToolLogos />
      <FeatureCarousel />
      <PricingSection />
      <Testimonials />
      <MemberBadge />
      <SiteFooter />
      <CookieBanner />
    </Box>
  );
}
